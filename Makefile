# Tableside: `make run` to serve, `make test` to run the whole suite. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
INSTALLED := $(VENV)/.installed-stamp
DEV_SETTINGS := DJANGO_SETTINGS_MODULE=config.settings.development

.PHONY: run test test-postgres setup install chromium admin bench lint serve clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(INSTALLED)

install: $(INSTALLED)

# Migrate and add the shipped catalog where missing (never overwrites an admin's edits).
setup: install
	$(DEV_SETTINGS) $(BIN)/python manage.py migrate --noinput
	$(DEV_SETTINGS) $(BIN)/python manage.py load_catalog

run: setup
	$(DEV_SETTINGS) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Debian's Chromium drives the browser tests; Playwright never downloads a browser of its own.
chromium:
	scripts/ensure-chromium

test: setup chromium
	$(BIN)/pytest

# The same suite against a throw-away PostgreSQL cluster on a loopback port.
test-postgres: install chromium
	scripts/with-postgres $(BIN)/pytest

admin: setup
	$(DEV_SETTINGS) $(BIN)/python manage.py createsuperuser

bench: setup
	$(BIN)/python bench/catalog.py
	$(BIN)/python bench/stm.py

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
