"""A browser page for a test that must stay on the live server and raise no JavaScript error:
every request it sends is recorded (page.requests) and checked when the page is closed."""

from __future__ import annotations

from contextlib import contextmanager
from urllib.parse import urlsplit


@contextmanager
def watched_page(browser, site, *, timeout: int, **context_options):
    """A page in a new browser context (context_options: viewport, locale, java_script_enabled…),
    with this default timeout in milliseconds; after the test, no request left the live server
    at `site` and no JavaScript error was raised."""
    # The service worker (static/js/offline.js) would fill its cache with a dozen pages at each new
    # context; only the tests of the offline app (tests/browser/test_offline.py) need it.
    context_options.setdefault("service_workers", "block")
    context = browser.new_context(**context_options)
    context.set_default_timeout(timeout)
    page = context.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    host = urlsplit(site).netloc
    outside = [url for url in page.requests if urlsplit(url).netloc != host]
    assert not outside, f"requests left the live server: {outside}"
    assert not errors, f"JavaScript errors: {errors}"
