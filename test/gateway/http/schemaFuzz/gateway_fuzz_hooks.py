"""Schemathesis hooks for the gateway's schema-driven fuzz test (test/gateway/http/gatewaySchemaFuzz.test.ts).

The served OpenAPI document cannot say which addresses are launched tokens, creators or wallets
with positions, or which hashes are transactions: random ones are all answered 404 (documented,
but they leave the success paths untested). So half the path parameters are steered to the seeded
launchpad's chain, tokens, creators and launch transactions (`FUZZ_GATEWAY_VALUES`, JSON).
"""

import json
import os

import schemathesis
from hypothesis import strategies as st

VALUES = json.loads(os.environ.get("FUZZ_GATEWAY_VALUES", "{}"))


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters or not VALUES:
        return st.just(path_parameters)
    steered = dict(path_parameters)
    if "chain" in steered:
        steered["chain"] = str(VALUES["chain"])
    if "token" in steered:
        steered["token"] = st.sampled_from(VALUES["tokens"])
    if "address" in steered:
        steered["address"] = st.sampled_from(VALUES["wallets"])
    if "hash" in steered:
        steered["hash"] = st.sampled_from(VALUES["transactions"])
    fixed = st.fixed_dictionaries({k: (v if isinstance(v, st.SearchStrategy) else st.just(v)) for k, v in steered.items()})
    return st.one_of(st.just(path_parameters), fixed)
