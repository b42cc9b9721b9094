"""Autocast for the test device: torch.cuda.amp's op lists and cast policies, registered for the
AutocastPrivateUse1 key, so autocast on this device casts exactly the operators a GPU casts.

The lists are those of ``ATen/autocast_mode.h`` in torch 2.13 (``AT_FORALL_LOWER_PRECISION_FP``,
``AT_FORALL_FP32``, ``AT_FORALL_FP32_SET_OPT_DTYPE``, ``AT_FORALL_PROMOTE``). They are
registered from Python because compiling the C++ wrappers would triple the device's build time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from . import _state

__all__ = ["register"]

LOWER_PRECISION_FP = (
    "_convolution.deprecated", "_convolution", "conv1d", "conv2d", "conv3d", "conv_tbc",
    "conv_transpose1d", "conv_transpose2d.input", "conv_transpose3d.input", "convolution",
    "prelu", "addmm", "addmv", "addr", "matmul", "einsum", "mm", "mv", "linalg_vecdot",
    "linear", "addbmm", "baddbmm", "bmm", "chain_matmul", "linalg_multi_dot",
    "_thnn_fused_lstm_cell", "_thnn_fused_gru_cell", "lstm_cell", "gru_cell", "rnn_tanh_cell",
    "rnn_relu_cell", "_scaled_dot_product_flash_attention", "scaled_dot_product_attention",
)
FP32 = (
    "acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p",
    "reciprocal", "rsqrt", "sinh", "tan", "pow.Tensor_Scalar", "pow.Tensor_Tensor", "pow.Scalar",
    "softplus", "layer_norm", "native_layer_norm", "rms_norm", "group_norm", "frobenius_norm.dim",
    "nuclear_norm", "nuclear_norm.dim", "cosine_similarity", "poisson_nll_loss",
    "cosine_embedding_loss", "nll_loss", "nll_loss2d", "hinge_embedding_loss", "kl_div",
    "l1_loss", "smooth_l1_loss", "huber_loss", "mse_loss", "margin_ranking_loss",
    "multilabel_margin_loss", "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss",
    "binary_cross_entropy_with_logits", "dist", "pdist", "cdist", "renorm", "logsumexp",
    "upsample_nearest1d", "_upsample_nearest_exact1d", "upsample_nearest2d",
    "_upsample_nearest_exact2d", "upsample_nearest3d", "_upsample_nearest_exact3d",
    "upsample_linear1d", "upsample_bilinear2d", "_upsample_bilinear2d_aa", "upsample_trilinear3d",
    "upsample_bicubic2d", "_upsample_bicubic2d_aa",
)
FP32_SET_OPT_DTYPE = (
    "prod", "prod.dim_int", "softmax.int", "log_softmax.int", "cumprod", "cumsum",
    "linalg_vector_norm", "linalg_matrix_norm", "linalg_matrix_norm.str_ord", "sum",
    "sum.dim_IntList",
)
PROMOTE = (
    "addcdiv", "addcmul", "atan2", "bilinear", "cross", "dot", "vdot", "grid_sampler",
    "index_put", "tensordot", "scatter_add",
)

_EXCLUDE = torch._C.DispatchKeySet(torch._C.DispatchKey.AutocastPrivateUse1)
_library: torch.library.Library | None = None


def _eligible(value: Any) -> bool:
    return (
        isinstance(value, torch.Tensor)
        and value.is_floating_point()
        and value.device.type == _state.profile.device
        and value.dtype is not torch.float64
    )


def _cast(value: Any, dtype: torch.dtype) -> Any:
    if _eligible(value):
        return value.to(dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(item, dtype) for item in value)
    return value


def _tensors(args: tuple[Any, ...]) -> list[torch.Tensor]:
    found: list[torch.Tensor] = []
    for arg in args:
        items = arg if isinstance(arg, (list, tuple)) else (arg,)
        found.extend(item for item in items if _eligible(item))
    return found


def _lower_precision(op: Any, args: tuple, kwargs: dict) -> Any:
    dtype = torch.get_autocast_dtype(_state.profile.device)
    return op(*_cast(args, dtype), **_cast(kwargs, dtype))


def _fp32(op: Any, args: tuple, kwargs: dict) -> Any:
    return op(*_cast(args, torch.float32), **_cast(kwargs, torch.float32))


def _fp32_set_opt_dtype(op: Any, args: tuple, kwargs: dict) -> Any:
    if not (args and _eligible(args[0])):
        return op(*args, **kwargs)
    names = [argument.name for argument in op._schema.arguments]
    position = names.index("dtype")
    if position < len(args):
        if args[position] is None:
            args = (*args[:position], torch.float32, *args[position + 1 :])
    elif kwargs.get("dtype") is None:
        kwargs = {**kwargs, "dtype": torch.float32}
    return op(*args, **kwargs)


def _promote(op: Any, args: tuple, kwargs: dict) -> Any:
    dtypes = {tensor.dtype for tensor in _tensors(args)}
    widest = torch.float32 if torch.float32 in dtypes or len(dtypes) > 1 else next(iter(dtypes), None)
    return op(*args, **kwargs) if widest is None else op(*_cast(args, widest), **kwargs)


def _kernel(op: Any, policy: Callable[[Any, tuple, dict], Any]) -> Callable[..., Any]:
    def kernel(*args: Any, **kwargs: Any) -> Any:
        with torch._C._ExcludeDispatchKeyGuard(_EXCLUDE):
            return policy(op, args, kwargs)

    return kernel


def register() -> None:
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    policies = ((LOWER_PRECISION_FP, _lower_precision), (FP32, _fp32),
                (FP32_SET_OPT_DTYPE, _fp32_set_opt_dtype), (PROMOTE, _promote))
    for names, policy in policies:
        for name in names:
            base, _, overload = name.partition(".")
            op = getattr(getattr(torch.ops.aten, base), overload or "default")
            _library.impl(name, _kernel(op, policy), "AutocastPrivateUse1")
