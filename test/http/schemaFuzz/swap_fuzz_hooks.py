"""Schemathesis hooks for the swap service's schema-driven fuzz test (test/http/schemaFuzz.test.ts).

Two things the served OpenAPI document cannot carry:

1. Which tokens have pools. Requests generated from the document name random addresses, which the
   market answers with `no route`, so half the schema-valid requests are steered to the seeded
   market's tokens and to amounts it can fill (`FUZZ_MARKET_TOKENS`), and half the pool ids of
   GET /market/pools/{poolId} to the market's pools, at its block (`FUZZ_MARKET_POOLS`). A steered body is kept only
   if it still matches the document's schema, and an invalid body (negative mode) is never touched.
2. Which 400s a schema-valid request may still get: only the refusals the document's 400
   descriptions name, that depend on state the schema cannot see: `no route: ...` (the market) on
   /quote and /execute, and on /submit a flag the stored quote cannot honour.
"""

import json
import os
import urllib.request

import schemathesis
from hypothesis import strategies as st
from jsonschema_rs import Draft202012Validator

MARKET_TOKENS = [t for t in os.environ.get("FUZZ_MARKET_TOKENS", "").split(",") if t]
# The pools of the market, for GET /market/pools/{poolId} (a random id is a 404).
MARKET_POOLS = [p for p in os.environ.get("FUZZ_MARKET_POOLS", "").split(",") if p]
# Amounts the seeded market can fill for tokens of 6 to 18 decimals.
MARKET_AMOUNTS = ["1000000", "250000000", "1000000000000000", "100000000000000000", "1000000000000000000", "5000000000000000000"]

_validators = {}


def _body_validator(name):
    """A validator for one request component of the served document (refs resolved inside it)."""
    if name not in _validators:
        with urllib.request.urlopen(os.environ["FUZZ_OPENAPI_URL"]) as response:
            document = json.load(response)
        schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        _validators[name] = Draft202012Validator(schema)
    return _validators[name]


def _steer(body, component, choice):
    token_in, token_out, amount, steer = choice
    # Only a body the document accepts is steered (negative mode's invalid bodies stay invalid).
    if not steer or not isinstance(body, dict) or not _body_validator(component).is_valid(body):
        return body
    steered = {**body, "tokenIn": token_in, "tokenOut": token_out, **({"amountIn": amount} if amount else {})}
    return steered if _body_validator(component).is_valid(steered) else body


@schemathesis.hook
def flatmap_body(context, body):
    component = {"/quote": "QuoteRequest", "/execute": "ExecuteRequest", "/quote/compare": "QuoteRequest", "/quote/split": "QuoteRequest"}.get(context.operation.path)
    if component is None or len(MARKET_TOKENS) < 2:
        return st.just(body)
    tokens = st.sampled_from(MARKET_TOKENS)
    # The generated amount (any of 1..2^256-1) half the time: the market's tokens meet absurd amounts too.
    amounts = st.one_of(st.sampled_from(MARKET_AMOUNTS), st.none())
    choice = st.tuples(tokens, tokens, amounts, st.booleans())
    return choice.map(lambda c: _steer(body, component, c))


# The 400s a request the schema accepts may get, by operation: the prefixes the document's 400
# descriptions name.
STATE_REFUSALS = {
    "POST /quote": ("no route: ",),
    "POST /execute": ("no route: ",),
    "POST /submit": ("useNativeIn: ", "unwrapNativeOut: ", "permit: "),
}
# Other answers a schema-valid request may get: the success (any operation not listed: 200 only;
# /quote/compare and /quote/split answer a market without a route with a 200 that says so),
# /submit's unknown quoteId, and a pool the market does not hold at the block asked.
ACCEPTED = {"POST /submit": {200, 404}, "GET /market/pools/{poolId}": {200, 404}}


@schemathesis.check
def schema_valid_requests_are_answered(ctx, response, case):
    """A request the document accepts is answered with success, or refused only for a state reason it states."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    label = case.operation.label
    status = response.status_code
    if status in ACCEPTED.get(label, {200}):
        return None
    if status == 400:
        try:
            error = json.loads(response.content).get("error", "")
        except (ValueError, AttributeError):
            error = ""
        if error.startswith(STATE_REFUSALS.get(label, ())):
            return None
        raise AssertionError(f"{label}: a request the document accepts was refused with 400 {error!r}")
    raise AssertionError(f"{label}: a request the document accepts was answered {status}: {response.content[:300]!r}")


@schemathesis.check
class every_operation_answers_200:
    """The run must reach each operation's success at least once, so a green run is not vacuous."""

    def __init__(self):
        self.succeeded = set()
        self.tested = set()

    def after_response(self, ctx, response, case):
        self.tested.add(case.operation.label)
        if response.status_code == 200:
            self.succeeded.add(case.operation.label)

    def after_run(self, ctx):
        missing = sorted(self.tested - self.succeeded)
        if missing:
            raise AssertionError("never answered 200: " + ", ".join(missing))


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if context.operation.path != "/market/pools/{poolId}" or not MARKET_POOLS or not isinstance(path_parameters, dict):
        return st.just(path_parameters)
    # Only a valid id is steered (negative mode's invalid ids stay invalid).
    steer = isinstance(path_parameters.get("poolId"), str) and len(path_parameters["poolId"]) in (42, 66)
    return st.tuples(st.sampled_from(MARKET_POOLS), st.booleans()).map(
        lambda c: {**path_parameters, "poolId": c[0]} if steer and c[1] else path_parameters
    )


@schemathesis.hook
def flatmap_query(context, query):
    if context.operation.path != "/market/pools/{poolId}" or not isinstance(query, dict) or "blockNumber" not in query:
        return st.just(query)
    # The market's own block (no blockNumber) half the time: a random block is older than every kept version.
    valid = isinstance(query.get("blockNumber"), str) and query["blockNumber"].isdigit() and 1 <= len(query["blockNumber"]) <= 15
    return st.booleans().map(lambda drop: {k: v for k, v in query.items() if k != "blockNumber"} if valid and drop else query)
