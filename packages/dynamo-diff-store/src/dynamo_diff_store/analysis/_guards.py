"""Guard categories read from the text torch prints for a failing guard. The text is never evaluated."""

from __future__ import annotations

import re
from typing import NamedTuple

from dynamo_diff_schema.compilation import MODULE_SETTING, GuardCategory

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
            r"torch_function_mode|default_device|___check_global_state|BACKEND_MATCH",
            re.I,
        ),
    ),
    # Two tensor arguments that alias where the entry had them apart.
    (GuardCategory.ALIASING, re.compile(r"Duplicate tensors found|check_no_aliasing", re.I)),
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
    # A range on a value read at run time (a symbolic float or int: `self.temperature > 0.5`, `n <= 4`); sizes
    # were matched above.
    (GuardCategory.VALUE, re.compile(r"^[\w.'\[\]]+ (?:<|>|<=|>=) -?\d+(?:\.\d+)?(?:e[-+]?\d+)?$", re.I)),
    # The same range with the bound first, or a bound each side (`41 <= self.n_fft`, `2 <= self.n_fft <= 39`: an int
    # attribute torch made symbolic, bounded by what the code compared it with).
    (
        GuardCategory.VALUE,
        re.compile(r"^-?\d+(?:\.\d+)? (?:<|>|<=|>=) [\w.'\[\]]+(?: (?:<|<=) -?\d+(?:\.\d+)?)?$", re.I),
    ),
    # An empty container or a false value the entry required (`not self.taps`, `not G['ACT_STATS']`).
    (GuardCategory.VALUE, re.compile(r"^not [\w.'\[\]]+$")),
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


# What a new cache entry was made for: its own guards on the source of an older entry's failing guard. A guard
# tree (dynamo_cpp_guards_str) line is `| | +- EQUALS_MATCH: G['MODE'] == 'cos'   # if MODE == "sin":  # f.py:17`;
# the failing guard names the same source in the words torch 2.13 uses there (`n == 2` for the tree's
# `L['n'] == 3`, `tensor 'x' dtype mismatch` for `check_tensor(L['x'], ...)`).
class GuardLeaf(NamedTuple):
    kind: str  # EQUALS_MATCH, TENSOR_MATCH, ID_MATCH, GLOBAL_STATE, ...
    source: str  # the guarded source, locals written bare (`x`, `G['MODE']`, `act.__code__`); '' when none
    text: str  # the guard as the tree writes it, without the user-code comment (cut at 2,000 characters)


_TREE_LEAF = re.compile(
    r"^[ \t|+-]*\+- (?!GuardManager\b|RootGuardManager\b|TREE_GUARD_MANAGER\b)([A-Z][A-Z_]{2,}): (.*)$"
)
_SOURCE = re.compile(r"\b[LG]\[(?:'[^'\n]*'|\"[^\"\n]*\"|\d+)\](?:\.\w+|\[(?:'[^'\n]*'|\"[^\"\n]*\"|-?\d+)\])*")
_BARE_LOCAL = re.compile(r"\bL\['(\w+)'\]")
_CHECK_TENSOR = re.compile(
    r"check_tensor\((?P<src>[^,]+), (?P<type>[\w.]+), (?P<keys>DispatchKeySet\([^)]*\)), (?P<dtype>[\w.]+), "
    r"device=(?P<device>[^,]+), requires_grad=(?P<rg>\w+), size=(?P<size>\[[^\]]*\]), stride=(?P<stride>\[[^\]]*\])"
)
_TENSOR_NAME = re.compile(r"^(?:tensor|expected type of) '(.+?)'(?= |,)")
_LITERAL = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|\b-?\d+(?:\.\d+)?\b|\b(?:True|False|None)\b")
_MADE_FOR_MAX = 4


def bare(source: str) -> str:
    """`L['x'].w` -> `x.w`: how torch 2.13's failing-guard texts name a frame local."""
    return _BARE_LOCAL.sub(r"\1", source)


def tree_leaves(text: str) -> tuple[GuardLeaf, ...]:
    leaves: list[GuardLeaf] = []
    for line in text.splitlines():
        m = _TREE_LEAF.match(line)
        if m is None:
            continue
        kind, guard = m[1], _USER_CODE_COMMENT.sub("", m[2]).strip()
        src = _SOURCE.search(guard)
        leaves.append(GuardLeaf(kind, bare(src[0]) if src else "", guard[:2000]))
    return tuple(leaves)


def _skeleton(text: str, source: str) -> str:
    return _LITERAL.sub("?", bare(text).replace(source, "\0")).replace(" ", "")


def _tensor_text(m: re.Match[str], category: GuardCategory | str) -> str:
    bits = [m["dtype"]]
    if category == GuardCategory.TYPE:
        bits.insert(0, m["type"])
    if category in (GuardCategory.DEVICE, GuardCategory.TYPE):
        bits.append(m["keys"])
    if m["device"] != "None":
        bits.append(f"device={m['device']}")
    if category == GuardCategory.REQUIRES_GRAD:
        bits.append(f"requires_grad={m['rg']}")
    bits += [f"size={m['size']}", f"stride={m['stride']}"]
    return f"{m['src']}: " + ", ".join(bits)


def _global_state(reason: str, leaves: tuple[GuardLeaf, ...]) -> list[str]:
    """`GLOBAL_STATE changed: grad_mode` -> the new tree's `grad_mode` in its ___check_global_state JSON."""
    names = reason.split("GLOBAL_STATE changed:", 1)[1].split()
    for leaf in leaves:
        if leaf.kind == "GLOBAL_STATE":
            found = [m for name in names if (m := re.search(rf'"{re.escape(name)}":(\w+|"[^"]*")', leaf.text))]
            said = [f"GLOBAL_STATE {m[0].replace(':', '=', 1)}".replace('"', "") for m in found]
            # `autocast(cpu)_enabled` names no key of the JSON: torch keeps autocast's flags as lists, one entry
            # per device type (`"autocast_state":{..., "enabled":[true,false,...]}`), said as the tree writes them.
            if any(name.startswith("autocast") for name in names):
                said += [
                    f"GLOBAL_STATE autocast_state.{m[1]}={m[2]}"
                    for m in re.finditer(r'"(enabled|dtype)":(\[[^\]]*\])', leaf.text)
                    if any(name.endswith(f"_{m[1]}") for name in names)
                ]
            return said
    return []


def made_for(reason: str, category: GuardCategory | str, leaves: tuple[GuardLeaf, ...]) -> list[str]:
    """The new entry's own guard(s) on the source of an older entry's failing guard (`reason`), as the new guard
    tree writes them; [] when none is found. Never evaluated."""
    body = _USER_CODE_COMMENT.sub("", CACHE_ENTRY_PREFIX.sub("", reason.split("\n", 1)[0], count=1)).strip()
    if not leaves or not body:
        return []
    if body.startswith("GLOBAL_STATE changed:"):
        return _global_state(body, leaves)
    if body.startswith("Duplicate tensors found:"):  # the new entry was made for them aliased
        return [leaf.text for leaf in leaves if leaf.kind == "LAMBDA_GUARD" and _SAME_TENSOR.match(leaf.text)]
    tensor = _TENSOR_NAME.match(body)
    if tensor is not None:
        source = bare(tensor[1])
    else:
        # The longest guarded source the failing text names whole (`act.__code__` before `act`).
        found = [
            leaf.source
            for leaf in leaves
            if leaf.source and re.search(rf"(?<![\w.'\]]){re.escape(leaf.source)}(?![\w\[])", bare(body))
        ]
        if not found:
            return []
        source = max(found, key=len)
    on_source = [leaf for leaf in leaves if leaf.source == source]
    if tensor is None:
        shape = _skeleton(body, source)
        # A guard the tree holds twice (a float's value guard under its local's manager and again at the top
        # level) is said once.
        same = list(dict.fromkeys(leaf.text for leaf in on_source if _skeleton(leaf.text, source) == shape))
        if same:
            return same[:_MADE_FOR_MAX]
    tensors = [m for leaf in on_source if leaf.kind == "TENSOR_MATCH" and (m := _CHECK_TENSOR.search(leaf.text))]
    return [_tensor_text(m, category) for m in tensors[:1]]


# What else differs between an older cache entry's guard tree and the new entry's, besides the failing guard torch
# reported (it reports only the first failing guard of each older entry). Compared source by source; a source
# guarded in only one tree is no difference. Never evaluated.
ENTRY_ID = re.compile(r"^\s*\[?(?:!(?P<ca>\d+)/)?(?P<frame>\d+)/(?P<fcid>\d+)\]?:")
_TENSOR_ASPECTS = ("dtype", "device", "requires_grad", "size", "stride")
_ASPECT_OF: dict[str, str] = {
    GuardCategory.DTYPE: "dtype",
    GuardCategory.DEVICE: "device",
    GuardCategory.REQUIRES_GRAD: "requires_grad",
    GuardCategory.SHAPE: "size",
    GuardCategory.STRIDE: "stride",
}
_STATE_ITEM = re.compile(r'"(\w+)":(true|false|-?\d+(?:\.\d+)?|"[^"]*")')
_ID_ARG = re.compile(r"___check_(?:obj|type)_id\([^,]+, (\d+)\)(?:, type=<class '([^'\n]+)'>)?")
_ROOT = re.compile(r"^[LG]\[(?:'[^'\n]*'|\"[^\"\n]*\")\]")
ALSO_DIFFERS_MAX = 6
_GROUP_MIN = 3


class _Item(NamedTuple):
    source: str  # as the tree writes it (`L['x']`); '' for the global state
    aspect: str  # dtype, size, ..., `==`, `type id`, `object id`, or a global-state setting
    before: str
    after: str


def _facts(leaves: tuple[GuardLeaf, ...]) -> dict[tuple[str, str, str], str]:
    """(source, aspect, guard shape) -> value, for the guards that can be compared between two trees; a guard shape
    seen more than once on one source is left out (which one matches which is not known)."""
    out: dict[tuple[str, str, str], str] = {}
    dup: set[tuple[str, str, str]] = set()

    def put(key: tuple[str, str, str], value: str) -> None:
        if key in out:
            dup.add(key)
        out[key] = value

    for leaf in leaves:
        if leaf.kind == "TENSOR_MATCH":
            m = _CHECK_TENSOR.search(leaf.text)
            if m is not None:
                for aspect in _TENSOR_ASPECTS:
                    put((m["src"], aspect, ""), m[aspect if aspect != "requires_grad" else "rg"])
        elif leaf.kind == "GLOBAL_STATE":
            for name, value in _STATE_ITEM.findall(leaf.text):
                put(("", name, ""), value.strip('"'))
        elif leaf.kind in ("TYPE_MATCH", "ID_MATCH"):
            m = _ID_ARG.search(leaf.text)
            src = _SOURCE.search(leaf.text)
            if m is not None and src is not None:
                aspect = "type" if leaf.kind == "TYPE_MATCH" else "object"
                put((src[0], aspect, ""), m[2] or m[1])
                put((src[0], f"{aspect} id", ""), m[1])
        elif "==" in leaf.text and (src := _SOURCE.search(leaf.text)) is not None:
            put((src[0], "==", leaf.kind + " " + _LITERAL.sub("?", leaf.text)), leaf.text)
    for key in dup:
        del out[key]
    return out


def _excluded(reason: str, category: GuardCategory | str, new: tuple[GuardLeaf, ...]) -> tuple[str, set[str]]:
    """The failing guard's source (bare) and the aspects of it torch reported (empty: all of them); ('', names) for
    the global state."""
    body = _USER_CODE_COMMENT.sub("", CACHE_ENTRY_PREFIX.sub("", reason.split("\n", 1)[0], count=1)).strip()
    if body.startswith("GLOBAL_STATE changed:"):
        return "", set(body.split("GLOBAL_STATE changed:", 1)[1].split())
    tensor = _TENSOR_NAME.match(body)
    if tensor is not None:
        aspect = _ASPECT_OF.get(str(category))
        return bare(tensor[1]), {aspect} if aspect else set()
    found = [
        leaf.source
        for leaf in new
        if leaf.source and re.search(rf"(?<![\w.'\]]){re.escape(leaf.source)}(?![\w\[])", bare(body))
    ]
    return (max(found, key=len), set()) if found else ("\0", set())


def _item_text(item: _Item) -> str:
    if item.aspect == "==":
        return f"{item.before} -> {item.after}"
    if not item.source:
        return f"GLOBAL_STATE {item.aspect} {item.before} -> {item.after}"
    return f"{item.source}: {item.aspect} {item.before} -> {item.after}"


def _group_text(items: list[_Item]) -> str:
    first = items[0]
    roots = {m[0] if (m := _ROOT.match(i.source)) else "" for i in items}
    root = roots.pop() if len(roots) == 1 else ""
    noun = next(
        (
            n
            for n, mark in (("parameters", "._parameters["), ("buffers", "._buffers["))
            if all(mark in i.source for i in items)
        ),
        "tensors" if first.aspect in _TENSOR_ASPECTS else "guards",
    )
    return (
        f"{len(items)} {noun}" + (f" of {root}" if root else "") + f": {first.aspect} {first.before} -> {first.after}"
    )


def also_differs(
    reason: str, category: GuardCategory | str, old: tuple[GuardLeaf, ...], new: tuple[GuardLeaf, ...]
) -> tuple[list[str], int]:
    """The guards whose value differs between the older entry's tree (`old`, the entry whose guard `reason` failed)
    and the new entry's (`new`), besides the one torch reported: short texts (like ones grouped, at most
    ALSO_DIFFERS_MAX) and how many guards differ in all."""
    if not old or not new:
        return [], 0
    before, after = _facts(old), _facts(new)
    skip_source, skip_aspects = _excluded(reason, category, new)
    items: list[_Item] = []
    for key, was in before.items():
        now = after.get(key)
        if now is None or now == was:
            continue
        source, aspect, _ = key
        if aspect in ("type id", "object id") and before.get((source, aspect.split()[0], "")) != after.get(
            (source, aspect.split()[0], "")
        ):
            continue  # the class differs: said once, by `type` / `object`
        if aspect in ("type", "object") and was.isdigit():
            continue  # no class written: the id says it
        if bare(source) == skip_source and (not skip_aspects or aspect in skip_aspects):
            continue
        items.append(_Item(source, aspect, was, now))
    groups: dict[tuple[str, str, str], list[_Item]] = {}
    for item in items:
        groups.setdefault(
            (item.aspect, item.before, item.after) if item.aspect != "==" else (item.before, "", ""), []
        ).append(item)
    texts: list[tuple[str, int]] = []  # (text, how many guards it says)
    for members in groups.values():
        owned = all(("._parameters[" in i.source or "._buffers[" in i.source) for i in members)
        roots = {m[0] if (m := _ROOT.match(i.source)) else "" for i in members}
        if members[0].source and (len(members) >= _GROUP_MIN or (len(members) > 1 and owned and len(roots) == 1)):
            texts.append((_group_text(members), len(members)))
        else:
            texts += [(_item_text(i), 1) for i in members]
    if len(texts) > ALSO_DIFFERS_MAX:
        shown = texts[: ALSO_DIFFERS_MAX - 1]
        texts = [*shown, (f"{len(items) - sum(n for _, n in shown)} more", 0)]
    return [t for t, _ in texts], len(items)


# What a compiled entry guards on the frame's tensor arguments: each argument's TENSOR_MATCH leaf (dtype, size and
# stride as the tree writes them, None = symbolic) and the shape-env guards on those arguments' sizes and strides
# (the tree's top-level `+- LAMBDA_GUARD: 2 <= L['x'].size()[0]`, `L['x'].stride()[0] == L['x'].size()[1]`),
# then the guards on a scalar argument's value (`L['___stack0'] > 0.0`, `L['n'] == 2`), each whole. An argument
# is a frame local (`L['x']`, `L['___stack0']`), not an attribute (`L['self'].w`) or an item.
INPUTS_MAX = 6
INPUT_GUARDS_MAX = 8
INPUT_CHARS = 200
_ARGUMENT = re.compile(r"^L\['(\w+)'\]$")
_ON_ARGUMENT = re.compile(r"(?<![\w.'\]])L\['(\w+)'\]\.(?:size|stride|storage_offset)\(\)")
# A guard on a scalar argument's value (`L['___stack0'] > 0.0`, `L['n'] == 2`): the local itself, not its items.
_ON_VALUE = re.compile(r"(?<![\w.'\]])L\['(\w+)'\](?![\w.\[])")
_VALUE_KINDS = ("LAMBDA_GUARD", "EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH")
_SAME_TENSOR = re.compile(r"^L\['\w+'\] is L\['\w+'\]$")
# The settings of ___check_global_state whose value torch starts a program with: a guard on another value (an entry
# compiled under no_grad, deterministic algorithms on) is said. autocast's are said by its recompiles' `made for`;
# thread counts and the float matmul precisions vary by machine and are not said.
_STATE_DEFAULTS = {
    "grad_mode": "true",
    "deterministic_algorithms": "false",
    "torch_function": "true",
    "torch_function_all_disabled": "false",
}
# ___check_global_state's `default_dtype` is a ScalarType code.
_DTYPE_CODES = {"5": "torch.float16", "6": "torch.float32", "7": "torch.float64", "15": "torch.bfloat16"}


def _cut(text: str) -> str:
    return text if len(text) <= INPUT_CHARS else text[: INPUT_CHARS - 1] + "…"


# A container argument said as one item, its structure as the guard tree checks it (`L['frames']: list of 3
# [f32[2, 12] x3]`, `L['tree']: tuple of 2 (tuple of 2 (f32[2, 16], f32[2, 16]), f32[2, 16])`): its type and length,
# each element's tensor (dtype, size; stride when not contiguous) or value or class. Read from the tree's TYPE_MATCH,
# LENGTH_CHECK / DICT_LENGTH, TENSOR_MATCH and EQUALS_MATCH leaves on the argument's items, never evaluated.
_ITEM = r"L\['\w+'\](?:\[(?:-?\d+|'[^'\n]*')\])*"
_ITEM_TYPE = re.compile(rf"^___check_type_id\(({_ITEM}), \d+\), type=<class '([\w.]+)'>$")
_ITEM_LENGTH = re.compile(rf"^len\(({_ITEM})\) == (\d+)$")
_ITEM_VALUE = re.compile(rf"^({_ITEM}) == (.{{1,40}})$")
_STEP_OF = re.compile(r"\[(-?\d+|'[^'\n]*')\]")
_CONTAINERS = {"list": ("[", "]"), "tuple": ("(", ")"), "dict": ("{", "}"), "torch.Size": ("(", ")")}
_SHORT_DTYPES = {
    "torch.float32": "f32",
    "torch.float16": "f16",
    "torch.bfloat16": "bf16",
    "torch.float64": "f64",
    "torch.int64": "i64",
    "torch.int32": "i32",
    "torch.int16": "i16",
    "torch.int8": "i8",
    "torch.uint8": "u8",
    "torch.bool": "b8",
    "torch.complex64": "c64",
}


def _contiguous(size: str, stride: str) -> bool:
    dims, steps = size.strip("[]").split(", "), stride.strip("[]").split(", ")
    if not all(d.isdigit() for d in dims + steps) or len(dims) != len(steps):
        return True  # symbolic: not said
    expected = 1
    for d, st in zip(reversed(dims), reversed(steps), strict=True):
        if int(d) != 1 and int(st) != expected:
            return False
        expected *= int(d)
    return True


def _containers(leaves: tuple[GuardLeaf, ...]) -> tuple[list[str], set[str]]:
    """Each container argument in one item (`L['frames']: list of 3 [f32[2, 12] x3]`), and the guard texts it says
    (its length and element-value guards, left out of the other lists)."""
    types: dict[str, str] = {}
    lengths: dict[str, str] = {}
    values: dict[str, str] = {}
    tensors: dict[str, str] = {}
    texts: dict[str, list[str]] = {}
    for leaf in leaves:
        if leaf.kind == "TYPE_MATCH" and (m := _ITEM_TYPE.match(leaf.text)):
            types.setdefault(m[1], m[2])
        elif leaf.kind in ("LENGTH_CHECK", "DICT_LENGTH") and (m := _ITEM_LENGTH.match(leaf.text)):
            lengths.setdefault(m[1], m[2])
            texts.setdefault(m[1], []).append(leaf.text)
        elif leaf.kind == "EQUALS_MATCH" and (m := _ITEM_VALUE.match(leaf.text)) and "[" in m[1][3:]:
            values.setdefault(m[1], m[2])
            texts.setdefault(m[1], []).append(leaf.text)
        elif leaf.kind == "TENSOR_MATCH" and (m := _CHECK_TENSOR.search(leaf.text)) and re.fullmatch(_ITEM, m["src"]):
            size = m["size"].replace("None", "?")
            desc = _SHORT_DTYPES.get(m["dtype"], m["dtype"]) + size
            desc += "" if _contiguous(m["size"], m["stride"]) else f" stride={m['stride']}"
            tensors.setdefault(m["src"], desc + (" requires_grad" if m["rg"] == "True" else ""))
    known = [*types, *lengths, *values, *tensors]

    def render(path: str) -> str:
        if path in tensors:
            return tensors[path]
        if path in values:
            return values[path]
        kind = types.get(path)
        if kind not in _CONTAINERS:
            return kind.rsplit(".", 1)[-1] if kind else "..."
        children = list(dict.fromkeys(path + _step(p, path)[0] for p in known if _below(p, path)))
        if all(_step(c, path)[1].lstrip("-").isdigit() for c in children):
            children.sort(key=lambda c: int(_step(c, path)[1]))
        parts: list[tuple[str, int]] = []
        for c in children:
            said = render(c)
            if kind == "dict":
                said = f"{_step(c, path)[1]}: {said}"
            if parts and parts[-1][0] == said and kind != "dict":
                parts[-1] = (said, parts[-1][1] + 1)
            else:
                parts.append((said, 1))
        n = lengths.get(path)
        inside = ", ".join(p if k == 1 else f"{p} x{k}" for p, k in parts)
        if n is not None and len(children) < int(n):
            inside += ", ..." if inside else "..."
        head = kind.replace("torch.", "") + (f" of {n}" if n is not None else "")
        opening, closing = _CONTAINERS[kind]
        return f"{head} {opening}{inside}{closing}" if inside else head

    items: list[str] = []
    said: set[str] = set()
    for path, kind in types.items():
        if kind not in _CONTAINERS or not re.fullmatch(r"L\['\w+'\]", path):
            continue
        below = [p for p in known if _below(p, path)]
        if not any(p in tensors or p in values for p in below):
            continue  # a length alone is said by its own guard
        items.append(f"{path}: {render(path)}")
        said.update(t for p in [path, *below] for t in texts.get(p, []))
    return items, said


def _below(path: str, root: str) -> bool:
    return path.startswith(root) and _STEP_OF.match(path, len(root)) is not None


def _step(path: str, root: str) -> re.Match[str]:
    """The first step below `root` of a path `_below` it (`[0]`, `['x']`)."""
    found = _STEP_OF.match(path, len(root))
    assert found is not None
    return found


def guards_on_inputs(leaves: tuple[GuardLeaf, ...]) -> tuple[list[str], int, int]:
    """`["L['x']: torch.float32, size=[None, 3], stride=[3, 1]", "2 <= L['x'].size()[0]"]`: the arguments first
    (at most INPUTS_MAX), then the shape guards naming them (at most INPUT_GUARDS_MAX), each at most INPUT_CHARS;
    how many were left out in all, and how many of those are guards on what the arguments hold. Never
    evaluated."""
    tensors: dict[str, str] = {}
    for leaf in leaves:
        if leaf.kind != "TENSOR_MATCH" or (m := _CHECK_TENSOR.search(leaf.text)) is None:
            continue
        if _ARGUMENT.match(m["src"]) and m["src"] not in tensors:
            device = f", device={m['device']}" if m["device"] != "None" else ""
            grad = ", requires_grad=True" if m["rg"] == "True" else ""
            tensors[m["src"]] = f"{m['src']}: {m['dtype']}{device}{grad}, size={m['size']}, stride={m['stride']}"
    names = {src[3:-2] for src in tensors}
    shape = list(
        dict.fromkeys(
            leaf.text
            for leaf in leaves
            if leaf.kind != "TENSOR_MATCH" and any(n in names for n in _ON_ARGUMENT.findall(leaf.text))
        )
    )
    # The values a scalar argument must have (torch's implicit NaN guard on a float input says nothing).
    values = list(
        dict.fromkeys(
            leaf.text
            for leaf in leaves
            if leaf.kind in _VALUE_KINDS
            and "math.isnan(" not in leaf.text
            and (found := _ON_VALUE.findall(leaf.text))
            and not any(n in names for n in found)
            and leaf.text not in shape
        )
    )
    shape += values
    # Tensor arguments that must be the same tensor (`L['acc'] is L['delta']`: an entry made for an aliased pair);
    # torch's guard that two arguments do not alias is on any two tensor arguments and says nothing a user set.
    shape += [leaf.text for leaf in leaves if leaf.kind == "LAMBDA_GUARD" and _SAME_TENSOR.match(leaf.text)]
    containers, contained = _containers(leaves)
    attrs = [
        t for t in _global_state_set(leaves) + _guards_on_attributes(leaves, names, set(shape)) if t not in contained
    ]
    args = list(tensors.values()) + containers
    shown = (
        [_cut(t) for t in args[:INPUTS_MAX]]
        + [_cut(t) for t in shape[:INPUT_GUARDS_MAX]]
        + [_cut(t) for t in attrs[:ATTRIBUTE_GUARDS_MAX]]
    )
    values_omitted = max(0, len(attrs) - ATTRIBUTE_GUARDS_MAX)
    omitted = max(0, len(args) - INPUTS_MAX) + max(0, len(shape) - INPUT_GUARDS_MAX) + values_omitted
    return shown, omitted, values_omitted


# The values an entry requires of what its arguments hold (`L['self'].cfg.top_k == 3`,
# `L['teacher']._modules['drop'].training == False`, `len(L['history']) == 3`, a symbolic float attribute's range
# `L['self'].temperature >= 0.0`), and a scalar guarded by its type alone (`L['margin']: int`: a dynamic int;
# `L['self'].temperature: float`: an attribute read at run time), and an object argument guarded by its class alone
# (`L['model']: MLP (its class, not the object)`). Parameters and buffers, torch's own marks (`hasattr(...)`, the
# implicit `not math.isnan(...)` on a float input) and objects' ids are left out: they say nothing a user set.
ATTRIBUTE_GUARDS_MAX = 8
_ATTRIBUTE_KINDS = ("EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "LENGTH_CHECK", "DICT_LENGTH", "LAMBDA_GUARD")
_STEP = r"(?:\.\w+|\[(?:'[^'\n]*'|-?\d+)\])"
_ON_LOCAL_PATH = re.compile(rf"^(?:len\(L\['\w+'\]{_STEP}*\)|L\['\w+'\]{_STEP}+) (?:==|!=|<=|>=|<|>) ")
# A range on a value an argument holds, the bound first (`41 <= L['self'].n_fft`, `2 <= L['self'].n_fft <= 39`): how
# torch writes the range of an int attribute it made symbolic.
_RANGE_ON_LOCAL_PATH = re.compile(rf"^-?\d+(?:\.\d+)? (?:<=|<|>=|>) L\['\w+'\]{_STEP}+(?: (?:<=|<) -?\d+(?:\.\d+)?)?$")
_OBJECT_TYPE = re.compile(r"^___check_type_id\(L\['(\w+)'\], \d+\), type=<class '(\w+(?:\.\w+)+)'>$")
_SCALAR_TYPE = re.compile(r"^___check_type_id\(L\['(\w+)'\], \d+\), type=<class '(int|float|bool|str)'>$")
_PATH_SCALAR_TYPE = re.compile(rf"^___check_type_id\((L\['\w+'\]{_STEP}+), \d+\), type=<class '(int|float|bool|str)'>$")


def _global_state_set(leaves: tuple[GuardLeaf, ...]) -> list[str]:
    """`GLOBAL_STATE grad_mode=false`: each setting of the entry's global state guard that is not the value torch
    starts a program with (an entry compiled under no_grad serves only calls under no_grad)."""
    for leaf in leaves:
        if leaf.kind != "GLOBAL_STATE":
            continue
        said = dict(_STATE_ITEM.findall(leaf.text))
        out = [
            f"GLOBAL_STATE {k}={said[k]}" for k, default in _STATE_DEFAULTS.items() if said.get(k, default) != default
        ]
        dtype = said.get("default_dtype")
        if dtype is not None and dtype != "6":
            out.append(f"GLOBAL_STATE default_dtype={_DTYPE_CODES.get(dtype, dtype)}")
        return out
    return []


def _guards_on_attributes(leaves: tuple[GuardLeaf, ...], tensors: set[str], said: set[str]) -> list[str]:
    out: list[str] = []
    for leaf in leaves:
        text = leaf.text
        if (
            leaf.kind in _ATTRIBUTE_KINDS
            and (_ON_LOCAL_PATH.match(text) or _RANGE_ON_LOCAL_PATH.match(text))
            and "._parameters[" not in text
            and "._buffers[" not in text
            and "math.isnan(" not in text
            and text not in said
        ):
            out.append(text)
    # A module's mode and a container's length first (what a user flips or grows), then the other values, then the
    # settings a torch module was built with (`conv.stride == (1,)`, `len(norm.normalized_shape) == 1`): a user
    # rarely changes those, and an entry guards on each of them.
    valued = {n for t in [*said, *out] for n in _ON_VALUE.findall(t)}
    for leaf in leaves:
        # A scalar argument guarded by its type alone (no guard on its value).
        if leaf.kind == "TYPE_MATCH" and (m := _SCALAR_TYPE.match(leaf.text)) and m[1] not in tensors | valued:
            out.append(f"L['{m[1]}']: {m[2]}")
        # A scalar an argument holds guarded by its type alone (`L['self'].temperature: float`): no guard compares
        # its value (a range guard on it, `L['self'].temperature >= 0.0`, is listed above and says more).
        elif (
            leaf.kind == "TYPE_MATCH"
            and (m := _PATH_SCALAR_TYPE.match(leaf.text))
            and "._parameters[" not in m[1]
            and "._buffers[" not in m[1]
            and not any(_compares(t, m[1]) for t in [*said, *out])
        ):
            out.append(f"{m[1]}: {m[2]}")
        # An object argument (not `self`) guarded by its class, not by which object it is (no ID_MATCH on it):
        # another instance of the class passes.
        elif (
            leaf.kind == "TYPE_MATCH"
            and (m := _OBJECT_TYPE.match(leaf.text))
            and m[1] not in tensors | valued | {"self"}
            and not any(o.kind == "ID_MATCH" and f"(L['{m[1]}'], " in o.text for o in leaves)
        ):
            out.append(f"L['{m[1]}']: {m[2].rsplit('.', 1)[-1]} (its class, not the object)")
    out.sort(
        key=lambda t: (
            not t.endswith((".training == True", ".training == False")),
            MODULE_SETTING.search(t) is not None,
            not t.startswith("len("),
        )
    )
    return list(dict.fromkeys(out))


def _compares(text: str, path: str) -> bool:
    """Whether a guard's text reads the value at `path` itself (`L['self'].t >= 0.0`), not something below it."""
    at = text.find(path)
    while at >= 0:
        after = text[at + len(path) : at + len(path) + 1]
        if not after or not (after.isalnum() or after in "_.["):
            return True
        at = text.find(path, at + 1)
    return False
