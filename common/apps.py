from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"

    def ready(self) -> None:
        # The API schema's reading of request models (drf-spectacular registers an extension
        # when its class is defined): defined before any schema is built.
        from . import request_schema  # noqa: F401
