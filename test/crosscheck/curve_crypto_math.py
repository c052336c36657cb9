#!/usr/bin/env python3
"""curvesim's port of Curve's tricrypto-ng AMM math (curvesim 0.5.0,
`curvesim.pool.cryptoswap.calcs.tricrypto_ng`, PyPI; Curve's simulator, which shares no code with
this project), asked the same questions as the math contract on the chain: `newton_D`, `get_y`
and `get_p`. Only its pool math is loaded (its package `__init__` imports plotting and data
libraries); run on the Python that `scripts/install-vyper.sh` installs.

Reads one JSON line per case (integers as decimal strings):
  {"fn": "newton_D", "ANN", "gamma", "x": [3], "K0_prev"}
  {"fn": "get_y", "ANN", "gamma", "x": [3], "D", "i"}
  {"fn": "get_p", "A", "gamma", "x": [3], "D"}
Writes one JSON line each: {"out": [decimal strings]} or {"error": "<exception class>"}.
"""
import json
import os
import sys
import sysconfig
import types


def load_tricrypto_ng():
    root = os.path.join(sysconfig.get_paths()["purelib"], "curvesim")
    packages = (
        ("curvesim", root),
        ("curvesim.pool", os.path.join(root, "pool")),
        ("curvesim.pool.cryptoswap", os.path.join(root, "pool", "cryptoswap")),
    )
    for name, path in packages:
        module = types.ModuleType(name)
        module.__path__ = [path]
        sys.modules[name] = module
    from curvesim.pool.cryptoswap.calcs import tricrypto_ng  # noqa: PLC0415

    return tricrypto_ng


def answer(math, case):
    x = [int(v) for v in case["x"]]
    fn = case["fn"]
    if fn == "newton_D":
        return [math.newton_D(int(case["ANN"]), int(case["gamma"]), x, int(case["K0_prev"]))]
    if fn == "get_y":
        return list(math.get_y(int(case["ANN"]), int(case["gamma"]), x, int(case["D"]), int(case["i"])))
    if fn == "get_p":
        return list(math.get_p(x, int(case["D"]), int(case["A"]), int(case["gamma"])))
    raise ValueError(f"unknown fn {fn}")


def main():
    math = load_tricrypto_ng()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            result = {"out": [str(int(v)) for v in answer(math, json.loads(line))]}
        except Exception as error:  # noqa: BLE001 - every refusal is compared as one
            result = {"error": type(error).__name__}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
