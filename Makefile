# Tableside: `make run` to serve, `make test` to run the whole suite. Both set everything up first.
# The Python the virtualenv is made from (PYTHON=… chooses another): the distribution's own
# /usr/bin/python3 where it is 3.11 or later and can make a virtualenv, else the first python3
# on PATH. Debian builds its Python with profile-guided and link-time optimisation, which a
# version manager's build (pyenv's, by default) goes without: the same tests, their servers
# included, cost the machine about 15 % less CPU on it (docs/MEASUREMENTS.md).
USABLE_PYTHON := import sys, ensurepip; sys.exit(sys.version_info < (3, 11))
ifeq ($(origin PYTHON), undefined)
PYTHON := $(firstword $(foreach candidate,/usr/bin/python3 python3,$(shell \
	$(candidate) -c '$(USABLE_PYTHON)' >/dev/null 2>&1 && echo $(candidate))) python3)
endif
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
INSTALLED := $(VENV)/.installed-stamp
SERVING := $(VENV)/.serving-stamp
DEV_SETTINGS := DJANGO_SETTINGS_MODULE=config.settings.development

.PHONY: run test test-postgres plain-totals setup install install-serving chromium admin bench bench-postgres lint typecheck serve game-night deploy-check backup restore clean

# Two sets of packages: what serving needs (`make run`, `serve`, `setup`), and that plus the test
# and lint tools (`make test`, `lint`, `typecheck`, `bench`: the "dev" extra, Playwright, mypy,
# schemathesis…, twice the size and time to install). uv installs them (itself from PyPI, into the
# virtualenv, by pip): the same versions pip chooses, in a fifth of pip's time from nothing
# (docs/MEASUREMENTS.md), time a clean clone's `make test` gives to the tests instead. Like pip
# with --no-compile, it compiles no module up front: Python compiles the few it imports.
UV := $(BIN)/uv
PACKAGES_INSTALL := $(UV) pip install --quiet --python $(BIN)/python
$(UV):
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile --disable-pip-version-check uv

$(SERVING): pyproject.toml | $(UV)
	$(PACKAGES_INSTALL) -e .
	touch $(SERVING)

$(INSTALLED): pyproject.toml | $(UV)
	$(PACKAGES_INSTALL) -e '.[dev]'
	touch $(SERVING) $(INSTALLED)

install-serving: $(SERVING)

install: $(INSTALLED)

# Migrate, add the shipped catalog where missing and bring rows still as shipped to the shipped
# version (never overwrites an admin's edits; it reports them).
setup: install-serving
	$(DEV_SETTINGS) $(BIN)/python manage.py migrate --noinput
	$(DEV_SETTINGS) $(BIN)/python manage.py load_catalog

run: setup
	$(DEV_SETTINGS) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Debian's Chromium (the full browser and its headless build) drives the browser tests;
# Playwright never downloads a browser of its own.
chromium:
	scripts/ensure-chromium

# ruff, import-linter and mypy first (seconds), then the whole suite in parallel: pytest-xdist
# starts WORKERS workers, each with its own test database, loaded catalog and browser; the report
# ends with the ten slowest tests. The suite never reads the development database, so this needs
# no `setup`. PYTEST_ARGS=… replaces the options
# (e.g. PYTEST_ARGS='-n 0' runs it in one process).
# Workers steal queued tests from each other (--dist worksteal): with the plain "load" split,
# one worker could be left alone with a queue of browser tests at the end while the other cores
# idled. One worker more than the cores is kept for machines where the browser tests leave a core
# waiting (docs/MEASUREMENTS.md has the figures).
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Where PYTHONDONTWRITEBYTECODE=1 is set, every worker would compile every project and test
# module again on every run (collecting took about three times as long). The test runs keep
# bytecode (__pycache__/ is ignored), compiled once up front.
BYTECODE := PYTHONDONTWRITEBYTECODE=
SOURCES := config cards common web games results scoring adjudicator
PYTEST_ARGS ?= -n $(WORKERS) --dist worksteal --durations=10
# The browser tests drive Debian's headless Chromium build here (same engine, half the CPU per
# page: the suite's largest cost) and the full browser, /usr/bin/chromium, in test-postgres, so
# CI runs both. TABLESIDE_CHROMIUM=… chooses another.
# mypy runs beside the suite: a clean clone has no mypy cache, and its cold run (about 30 s of one
# core) would leave the other core idle, where the suite keeps both busy. Its report follows the
# suite's, and either failing fails `make test`; ruff and the contracts (a second) run first. It
# holds TYPECHECK_LOCK while it writes mypy's cache: the tests that copy that cache to run mypy
# themselves (on a copy of the project, on a snippet) wait for the lock (tests/mypy_cache.py), so
# they copy it finished and read again only what they change, not the whole project from nothing.
TYPECHECK_LOG := $(VENV)/typecheck.log
TYPECHECK_LOCK := $(VENV)/.typecheck.lock
test: install chromium lint
	$(BYTECODE) $(BIN)/python -m compileall -q $(SOURCES) >/dev/null
	@echo "mypy runs beside the suite (make typecheck); its report follows the suite's."
	@flock $(TYPECHECK_LOCK) $(MAKE) --no-print-directory typecheck > $(TYPECHECK_LOG) 2>&1 & typecheck=$$!; \
	$(BYTECODE) TABLESIDE_CHROMIUM="$${TABLESIDE_CHROMIUM:-/usr/bin/chromium-headless-shell}" $(BIN)/pytest $(PYTEST_ARGS); \
	suite=$$?; wait $$typecheck; types=$$?; cat $(TYPECHECK_LOG); \
	if [ $$types -ne 0 ]; then echo "make test: mypy found problems (above)"; fi; \
	[ $$suite -eq 0 ] && [ $$types -eq 0 ]

# The same suite against a throw-away PostgreSQL cluster on a loopback port, and deeper where
# `make test` keeps to what finds most: it enumerates again the named hard hands' totals that
# `make test` reads from a record (tests/engines/star_trek_missions_plain_record.py), and draws
# 150 bodies for each game's score and rulings operations where `make test` draws 100
# (tests/test_schemathesis.py). CI runs both, so each CI run does the deeper checks once.
test-postgres: install chromium
	$(BYTECODE) $(BIN)/python -m compileall -q $(SOURCES) >/dev/null
	$(BYTECODE) TABLESIDE_PLAIN_LIVE=1 SCHEMATHESIS_GAME_DRAWS=150 TABLESIDE_CHROMIUM="$${TABLESIDE_CHROMIUM:-/usr/bin/chromium}" scripts/with-postgres $(BIN)/pytest $(PYTEST_ARGS)

# After a change to how a Star Trek: Missions hand scores (or to its cards): enumerates again the
# hard hands whose plain totals `make test` reads from a record, and writes the record anew
# (tests/engines/star_trek_missions_plain_record.py). In one process: workers would overwrite
# each other's share.
plain-totals: install
	TABLESIDE_PLAIN_RECORD=1 $(BIN)/pytest -p no:xdist -q \
	  tests/engines/test_star_trek_missions_choices_exact.py tests/engines/test_star_trek_missions_search.py

# The production configuration on loopback: gunicorn with uvicorn's event-loop workers
# (config/gunicorn.py names the app, config.asgi; a slow client costs a connection, not a worker),
# whitenoise's hashed compressed files, production settings; DATABASE_URL selects PostgreSQL,
# SQLite otherwise. LOCAL_HTTP=1 because no TLS proxy stands in front here.
PROD := DJANGO_SETTINGS_MODULE=config.settings.production
LOCAL_SECRET := $(VENV)/.local-secret-key
$(LOCAL_SECRET): | install-serving
	$(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $(LOCAL_SECRET)

serve: setup $(LOCAL_SECRET)
	$(PROD) SECRET_KEY="$${SECRET_KEY:-$$(cat $(LOCAL_SECRET))}" ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost}" \
	  LOCAL_HTTP=1 $(BIN)/python manage.py collectstatic --noinput -v0
	$(PROD) SECRET_KEY="$${SECRET_KEY:-$$(cat $(LOCAL_SECRET))}" ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost}" \
	  LOCAL_HTTP=1 $(BIN)/gunicorn -c config/gunicorn.py

# A game night: the same production server for the phones of the room, on this machine's address
# on the network (its default route's; HOST=… chooses another), allowed hosts that address alone,
# plain HTTP; it prints "Phones open: http://ADDR:PORT/" and its QR code (config/game_night.py).
game-night: setup $(LOCAL_SECRET)
	SECRET_KEY="$${SECRET_KEY:-$$(cat $(LOCAL_SECRET))}" PORT=$(PORT) $(BIN)/python -m config.game_night

# `check --deploy` under the production settings as deployed (TLS on); any warning fails.
deploy-check: install-serving
	$(PROD) SECRET_KEY="$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	  ALLOWED_HOSTS=tableside.example $(BIN)/python manage.py check --deploy --fail-level WARNING

# The whole database to backups/tableside-<time>.json.gz, its first line a manifest (counts and a
# checksum); restore one with FILE=…: the manifest is checked before anything changes, then all or
# nothing. For SQLite; PostgreSQL in production uses `manage.py dbbackup`/`dbrestore` (pg_dump).
backup: setup
	$(DEV_SETTINGS) $(BIN)/python manage.py backup_database

restore: setup
	@test -n "$(FILE)" || { echo "Say which backup: make restore FILE=backups/tableside-….json.gz"; exit 2; }
	$(DEV_SETTINGS) $(BIN)/python manage.py restore_database "$(FILE)"

admin: setup
	$(DEV_SETTINGS) $(BIN)/python manage.py createsuperuser

bench: install setup chromium
	scripts/ensure-wrk
	$(BIN)/python bench/catalog.py
	$(BIN)/python bench/stm.py
	$(BIN)/python bench/bad_input.py
	$(BIN)/python bench/stm_table.py
	$(BIN)/python bench/http.py
	$(BIN)/python bench/tables.py
	$(BIN)/python bench/schema_share.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/browser_cost.py

# The HTTP load, the table polls and the catalog benchmark (100,000 cards) on a throw-away
# PostgreSQL cluster. HTTP and tables first: the catalog benchmark's extra game would weigh on GET /api/games/, the reference.
bench-postgres: install
	scripts/ensure-wrk
	scripts/with-postgres sh -c '$(BIN)/python bench/http.py && $(BIN)/python bench/tables.py && BENCH_DATABASE_URL="$$DATABASE_URL" $(BIN)/python bench/catalog.py'

# ruff, then import-linter's contracts ([tool.importlinter] in pyproject.toml: engines free of
# Django, the direction of imports between the apps, no import circles).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

# mypy over the project with django-stubs, the engines under --strict's flags (pyproject.toml:
# [tool.mypy] and its overrides, which name the modules of import-linter's "engines" contract).
typecheck: install
	$(BIN)/mypy cards common web results scoring adjudicator tables games config bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
