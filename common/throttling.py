"""Rate limits of the POST endpoints (scores and rulings), per client address."""

from rest_framework.throttling import SimpleRateThrottle


class EvaluationRateThrottle(SimpleRateThrottle):
    """Scores and rulings cost real work and each is saved: at most settings'
    REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["evaluations"] per client address."""

    scope = "evaluations"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
