"""One refused call in a fresh interpreter: the first refusal the extension hands back (as data,
since no C++ exception crosses it) and the wrapper raises. scripts/python_device.sh runs it when a test file crashed, plainly
and after torch has initialized CUDA, to tell an environment-triggered crash from one in the checks.
Usage: python3 exception_probe.py [torch]; prints one line, exits 0 when the refusal arrived."""

import sys

if "torch" in sys.argv[1:]:
    import torch

    if torch.cuda.is_available():
        torch.cuda.init()
        torch.cuda.current_stream()

import rope_kv  # noqa: E402
from arg_cases import HQ, D, T, call, make_args  # noqa: E402

args = make_args()
q = args["query"]
args["query"] = q.view(0, (T, HQ * D), (q.strides[0], 1))  # 2-D without head_size=: refused
try:
    call(rope_kv.check_args, args)
except ValueError as e:
    print("refused as expected:", e)
    sys.exit(0)
print("not refused: a 2-D query without head_size= passed the checks")
sys.exit(1)
