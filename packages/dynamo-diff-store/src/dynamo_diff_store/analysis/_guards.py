"""Guard categories read from the text torch prints for a failing guard. The text is never evaluated."""

from __future__ import annotations

import re

from dynamo_diff_schema.compilation import GuardCategory

# Ordered: the first pattern that matches decides. Texts torch writes (docs/SEMANTICS.md lists one per category;
# fixtures/captures/guards has each, from torch 2.13), e.g.
#   "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"         (TENSOR_MATCH, sizes)
#   "0/0: tensor 'x' requires_grad mismatch. expected requires_grad=0"       (TENSOR_MATCH, requires_grad)
#   "0/0: tensor 'x' dtype mismatch. expected Float, actual Double"          (TENSOR_MATCH, dtype)
#   "0/0: tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, ...), actual DispatchKeySet(Meta, ...)"
#   "0/0: expected type of 'x' to be a tensor type, ' but found <class '...Parameter'>"
#   "0/0: L['n'] == 2" / "n == 2"                                            (EQUALS_MATCH / CONSTANT_MATCH)
#   "0/0: ___check_obj_id(L['m'], 140...)"                                   (ID_MATCH)
#   "0/0: GLOBAL_STATE changed: grad_mode "                                  (GLOBAL_STATE, the grad mode)
#   "0/0: GLOBAL_STATE changed: deterministic_algorithms "                   (GLOBAL_STATE, anything else)
#   "0/0: Ne(L['x'].size()[0], 1)" / "2 <= L['x'].size()[0]"                 (shape_env symbolic guards)
# `requires_grad` is a property of one tensor, not the grad mode: `torch.no_grad()` does not fix it.
_RULES: tuple[tuple[GuardCategory, re.Pattern[str]], ...] = (
    (GuardCategory.REQUIRES_GRAD, re.compile(r"requires_grad", re.I)),
    (GuardCategory.GRAD_MODE, re.compile(r"grad_mode|is_grad_enabled|GradMode", re.I)),
    (
        GuardCategory.GLOBAL_STATE,
        re.compile(
            r"GLOBAL_STATE|global state|deterministic_algorithms|autocast|"
            r"torch_function_mode|default_device|___check_global_state",
            re.I,
        ),
    ),
    (GuardCategory.STRIDE, re.compile(r"stride mismatch|\.stride\(\)", re.I)),
    (GuardCategory.DTYPE, re.compile(r"dtype mismatch|\.dtype\b", re.I)),
    (GuardCategory.DEVICE, re.compile(r"device (?:index )?mismatch|\.device\b", re.I)),
    # `len(kwargs) == 7` / `len(L['xs']) == 3` guard a Python container's length, not a tensor's shape: they fall
    # through to `value` below (seen in Transformers' generate(): the decode step passes one more keyword).
    (
        GuardCategory.SHAPE,
        re.compile(r"size mismatch|sizes mismatch|rank mismatch|dimensionality|\.dim\(\)|\.ndim\b", re.I),
    ),
    (
        GuardCategory.SYMBOL,
        re.compile(
            r"\b(?:Eq|Ne|Mod|Max|Min|FloorDiv)\(|\bs\d+\b|\.size\(\)\[\d+\]\s*(?:<|>|<=|>=)|"
            r"(?:<|>|<=|>=)\s*\S*\.size\(\)",
            re.I,
        ),
    ),
    (
        GuardCategory.IDENTITY,
        re.compile(
            r"___check_obj_id|ID_MATCH|\bid\(|is not None|\bis None\b|"
            r"identity mismatch",
            re.I,
        ),
    ),
    (
        GuardCategory.TYPE,
        re.compile(
            r"___check_type_id|TYPE_MATCH|type mismatch|isinstance|___check_instance|expected type of .* to be", re.I
        ),
    ),
    (GuardCategory.VALUE, re.compile(r"==|!=|EQUALS_MATCH|CONSTANT_MATCH|value mismatch|\bnot\b.*\bin\b", re.I)),
)

# "0/1: ..." prefix naming the cache entry whose guard failed.
CACHE_ENTRY_PREFIX = re.compile(r"^\s*(?:\[?!?\d+/)?\d+/\d+\]?:\s*")


# A tensor's dispatch keys say its device, its layout and whether autograd tracks it, all at once.
_DISPATCH = re.compile(
    r"dispatch key set mismatch\. expected DispatchKeySet\(([^)]*)\), actual DispatchKeySet\(([^)]*)\)"
)
_AUTOGRAD_KEYS = re.compile(r"^(?:Autograd\w*|ADInplaceOrView|BackendSelect)$")
_LAYOUT_KEYS = re.compile(r"^(?:Sparse|SparseCsr|Quantized|Nested|Mkldnn)")


def _dispatch_category(expected: str, actual: str) -> GuardCategory:
    """Which property of the tensor changed, from the two dispatch key sets torch prints."""
    before = {k.strip() for k in expected.split(",") if k.strip()}
    after = {k.strip() for k in actual.split(",") if k.strip()}
    changed = before ^ after
    if changed and all(_AUTOGRAD_KEYS.match(k) for k in changed):
        return GuardCategory.REQUIRES_GRAD
    if any(_LAYOUT_KEYS.match(k) for k in changed):
        return GuardCategory.TYPE  # dense vs sparse / quantized / nested: another kind of tensor
    return GuardCategory.DEVICE


# torch 2.13 appends the user code a guard came from: `2 <= x.size()[0]  # return x * 2  # model.py:5 in f (...)`.
_USER_CODE_COMMENT = re.compile(r"\s{2,}#.*$", re.S)


def categorize(text: str) -> GuardCategory:
    """The category of one failing-guard text (without evaluating it; the user-code comment is left out)."""
    body = _USER_CODE_COMMENT.sub("", CACHE_ENTRY_PREFIX.sub("", text.split("\n", 1)[0], count=1))
    dispatch = _DISPATCH.search(body)
    if dispatch is not None:
        return _dispatch_category(dispatch.group(1), dispatch.group(2))
    for category, pattern in _RULES:
        if pattern.search(body):
            return category
    return GuardCategory.OTHER


def split_reason_text(text: str) -> list[str]:
    """Split a plain-text recompile reason payload into entries.

    Newer torch writes the reasons as text (even when the artifact's encoding says json): one line per
    failing guard, each starting with the cache entry id ("0/0: ..."). Lines without that prefix continue
    the previous entry; when no line has the prefix, every non-empty line is an entry.
    """
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not any(CACHE_ENTRY_PREFIX.match(line) for line in lines):
        return [line.strip() for line in lines]
    entries: list[str] = []
    for line in lines:
        if CACHE_ENTRY_PREFIX.match(line) or not entries:
            entries.append(line.strip())
        else:
            entries[-1] += "\n" + line.strip()
    return entries
