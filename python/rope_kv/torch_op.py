"""torch.library custom ops for rope_kv, so torch.compile keeps the kernels in its graphs.

Importing this module (``import rope_kv`` does it when torch was imported first) registers

- ``torch.ops.rope_kv.fused``
- ``torch.ops.rope_kv.unfused_pair``

with the arguments of ``rope_kv.fused`` in this order::

    (positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
     k_scale, v_scale, is_neox, kv_cache_dtype, query_out, layout=None, head_size=None,
     write_back_key=True, pdl=False)

The first thirteen have no defaults (None where unused): torch's dispatcher hands a custom op's
mutable arguments to it by position, and a defaulted query_out left out of a call is not there.
There is no ``style`` (is_neox says it) and no ``stream``: the op launches on PyTorch's current
stream, read when it runs, so under CUDA graph capture it is the capture stream. The ops return
nothing and declare query, key, key_cache, value_cache and query_out mutated: a superset of what
a call writes (query is read-only when query_out is given, key when write_back_key is False),
which is always safe for functionalization.

Their fake (meta) implementations do nothing: the ops create no tensors, and the argument checks
need real device pointers, so a bad argument is reported when the compiled graph first runs.
Outside compiled code, ``rope_kv.fused`` itself is the cheaper call (no dispatcher on the way).
"""

from typing import Optional

import torch

from . import fused as _fused
from . import unfused_pair as _unfused_pair

__all__ = ["fused", "unfused_pair"]

_MUTATED = ("query", "key", "key_cache", "value_cache", "query_out")


def _define(name, launch):
    # The signature is spelled out (no *args) because torch.library reads the schema from it.
    @torch.library.custom_op(f"rope_kv::{name}", mutates_args=_MUTATED)
    def op(
        positions: torch.Tensor,
        query: torch.Tensor,
        key: torch.Tensor,
        value: Optional[torch.Tensor],
        cos_sin_cache: torch.Tensor,
        slot_mapping: Optional[torch.Tensor],
        key_cache: Optional[torch.Tensor],
        value_cache: Optional[torch.Tensor],
        k_scale: Optional[torch.Tensor],
        v_scale: Optional[torch.Tensor],
        is_neox: bool,
        kv_cache_dtype: str,
        query_out: Optional[torch.Tensor],
        layout: Optional[str] = None,
        head_size: Optional[int] = None,
        write_back_key: bool = True,
        pdl: bool = False,
    ) -> None:
        stream = torch.cuda.current_stream(query.device) if query.is_cuda else None
        launch(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
               k_scale, v_scale, is_neox, kv_cache_dtype, layout=layout, head_size=head_size,
               query_out=query_out, write_back_key=write_back_key, pdl=pdl, stream=stream)

    @op.register_fake
    def _(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
          k_scale, v_scale, is_neox, kv_cache_dtype, query_out, layout=None, head_size=None,
          write_back_key=True, pdl=False):
        return None

    return op


fused = _define("fused", _fused)
unfused_pair = _define("unfused_pair", _unfused_pair)
