"""Synthetic fault responses: realistic error bodies (corruptions live in the corpus)."""

from __future__ import annotations

from typing import Any

from toolmaze_gym import hashing

TRANSIENT_ERRORS: tuple[dict[str, Any], ...] = (
    {"code": 429, "status": "Too Many Requests", "type": "rate_limit_exceeded",
     "message": "Rate limit exceeded: 60 requests per minute. Retry after 2 seconds.",
     "retry_after": 2},
    {"code": 503, "status": "Service Unavailable", "type": "service_unavailable",
     "message": "The service is temporarily unavailable. Please try again shortly."},
    {"code": 504, "status": "Gateway Timeout", "type": "upstream_timeout",
     "message": "The upstream server did not respond in time (timeout after 30000 ms)."},
)
PERMANENT_ERRORS: tuple[dict[str, Any], ...] = (
    {"code": 404, "status": "Not Found", "type": "endpoint_not_found",
     "message": "The requested endpoint does not exist on this API version."},
    {"code": 410, "status": "Gone", "type": "endpoint_retired",
     "message": "This endpoint has been permanently retired and is no longer available."},
    {"code": 403, "status": "Forbidden", "type": "permission_denied",
     "message": "Your API key does not have access to this endpoint."},
    {"code": 501, "status": "Not Implemented", "type": "not_implemented",
     "message": "This operation is not implemented by the provider."},
)


def error_body(permanent: bool, key: str) -> dict[str, Any]:
    pool = PERMANENT_ERRORS if permanent else TRANSIENT_ERRORS
    return {"error": dict(hashing.choice(pool, "error", key))}
