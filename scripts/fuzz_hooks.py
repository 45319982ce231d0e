"""schemathesis hooks for scripts/fuzz.sh.

GraphQL answers expected outcomes (not signed in, not found, field errors) as `errors` with a
stable `extensions.code`, as API.md says; schemathesis's own GraphQL check counts every such
entry as a server failure. This check fails on what is one: an HTTP 5xx, a body that is not a
GraphQL response, or an error whose code is INTERNAL (or a resolver error with no code).
"""

import schemathesis


@schemathesis.check
def graphql_no_internal_error(ctx, response, case):
    if response.status_code >= 500:
        raise AssertionError(f"HTTP {response.status_code} from the GraphQL endpoint")
    try:
        body = response.json()
    except ValueError as err:
        raise AssertionError(f"the answer is not JSON: {response.text[:200]!r}") from err
    if not isinstance(body, dict) or not ("data" in body or "errors" in body):
        raise AssertionError(f"not a GraphQL response: {str(body)[:200]}")
    for error in body.get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        if code == "INTERNAL" or ("path" in error and code is None):
            raise AssertionError(f"internal error: {error}")
