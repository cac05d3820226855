"""gunicorn's worker for config.asgi: uvicorn's event loop in each of gunicorn's processes."""

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {
        # The standard library's loop and uvicorn's pure-Python HTTP parser (h11): no compiled
        # extras to install, and h11 refuses a request line and headers over 16 kB.
        "loop": "asyncio",
        "http": "h11",
        # Django has no lifespan events; without this uvicorn logs that it tried.
        "lifespan": "off",
        # The client address stays the socket's: X-Forwarded-For is read by the app alone
        # (TRUSTED_PROXY_COUNT), never rewritten by the server from what a client wrote.
        "proxy_headers": False,
        "server_header": False,
    }
