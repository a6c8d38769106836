"""Trains the network evaluation (docs/network.md) on the records of `fit-eval net-data`.

The model is the float twin of src/eval/network: the 46 placements' embedding rows summed with a
bias, clipped to 0..1; beside them the 5 scalar inputs / 128; per stage (4 empties) a 32-wide
layer clipped to 0..1 and a linear output in discs. After training the weights are rounded to the
integer units of the file (`export`), which the engine reads.

Streaming: the record files are memory-mapped and read a block at a time (`--block` records,
shuffled within the block, blocks in a random order each epoch), so memory stays bounded
whatever the data's size. Resumable: `--checkpoint` holds the parameters, the optimiser's state
and the epoch, written after every epoch; the run goes on from it. Deterministic from `--seed`
(on one machine and one version of the pinned packages).

Siblings (`--siblings W`): `net-data` writes the children of each every-move line of `fit-eval
solved` as a group (`groups-train.bin`). Each step then also takes `--sibling-batch` groups and adds
W times the squared error of the children's values *centred within their group* (value minus the
group's mean, against the same of the exact scores): what a search needs to rank a position's
moves, which the plain loss serves only as far as it serves the values themselves. The
validation table adds, per band of empties, that centred error and how often the child the
network values lowest (the move it would play) is a best move.

Usage (see train/README.md):
    python train/netfit.py --data target/net-data --epochs 4 --out data/eval/network-8.oxnn
"""

import argparse
import functools
import os
import struct
import sys
import time

import numpy as np

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=true")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

LANES = 46
SCALARS = 5
HIDDEN = 32
INPUTS2 = 48
HIDDEN2 = 32
BUCKET = 4
STAGES = 16
VERSION = 2
MAGIC = b"OXNNET\0\x1a"

RECORD = np.dtype(
    [
        ("idx", "<u2", (LANES,)),
        ("sc", "u1", (SCALARS,)),
        ("empties", "u1"),
        ("label", "i1"),
        ("kind", "u1"),
        ("v9", "i1"),
        ("pad", "u1"),
    ]
)
assert RECORD.itemsize == 102

# The limits the integer file can hold (file units in brackets).
EMB_MAX = 127 / 128  # (x128: 127, an i8)
W2_MAX = 4.0  # (x64: 256)
W3_MAX = 120.0  # (x64: 7680)
KIND_NAMES = ["game result", "exact (perfect line)", "searched", "exact (labelled)", "exact (solved)"]


def load_layout(path):
    words = np.fromfile(path, dtype="<u4")
    rows, table_len, lanes = int(words[0]), int(words[1]), int(words[2])
    offsets = words[3 : 3 + lanes].astype(np.int64)
    row_of = words[3 + lanes : 3 + lanes + table_len].astype(np.int32)
    assert lanes == LANES, lanes
    return rows, offsets, row_of


def init(rows, key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "emb": jax.random.normal(k1, (rows, HIDDEN)) * 0.02,
        "b1": jnp.full((HIDDEN,), 0.3),
        "w2": jax.random.normal(k2, (STAGES, HIDDEN2, HIDDEN + SCALARS)) * (1.0 / np.sqrt(HIDDEN)),
        "b2": jnp.full((STAGES, HIDDEN2), 0.1),
        "w3": jax.random.normal(k3, (STAGES, HIDDEN2)) * 2.0,
        "b3": jnp.zeros((STAGES,)),
    }


@jax.custom_vjp
def embedding_bag(emb, ids):
    """The sum of the rows `ids` (batch x placements) of `emb`."""
    return jnp.take(emb, ids.reshape(-1), axis=0).reshape(ids.shape + (emb.shape[1],)).sum(axis=1)


def _bag_fwd(emb, ids):
    return embedding_bag(emb, ids), (ids, emb.shape[0])


def _bag_bwd(saved, g):
    # Each row's gradient is the sum of the batch's output gradients where it was read: a segment
    # sum, several times faster on the CPU than the scatter that the gather's own transpose makes.
    ids, rows = saved
    spread = jnp.broadcast_to(g[:, None, :], ids.shape + (g.shape[1],)).reshape(-1, g.shape[1])
    return jax.ops.segment_sum(spread, ids.reshape(-1), rows), None


embedding_bag.defvjp(_bag_fwd, _bag_bwd)


def forward(params, ids, sc, stage):
    acc = params["b1"] + embedding_bag(params["emb"], ids)
    a1 = jnp.clip(acc, 0.0, 1.0)
    x = jnp.concatenate([a1, sc], axis=-1)
    z2 = jnp.einsum("bji,bi->bj", params["w2"][stage], x) + params["b2"][stage]
    a2 = jnp.clip(z2, 0.0, 1.0)
    return (params["w3"][stage] * a2).sum(-1) + params["b3"][stage]


def clip_params(params):
    return {
        **params,
        "emb": jnp.clip(params["emb"], -EMB_MAX, EMB_MAX),
        "w2": jnp.clip(params["w2"], -W2_MAX, W2_MAX),
        "w3": jnp.clip(params["w3"], -W3_MAX, W3_MAX),
    }


def batch_arrays(rec, offsets, row_of):
    ids = row_of[rec["idx"].astype(np.int64) + offsets[None, :]]
    sc = rec["sc"].astype(np.float32) / 128.0
    stage = np.minimum(rec["empties"].astype(np.int32) // BUCKET, STAGES - 1)
    return ids, sc, stage


def centred_error(y, label, mask):
    """Per group (rows), each member's value minus the group's mean against the same of the labels:
    the squared differences (masked)."""
    n = jnp.maximum(mask.sum(-1, keepdims=True), 1.0)
    dy = y - (y * mask).sum(-1, keepdims=True) / n
    dl = label - (label * mask).sum(-1, keepdims=True) / n
    return mask * (dy - dl) ** 2


def make_step(optimiser, kind_weight, sibling_weight=0.0):
    # One weight a kind; a shorter list gives the later kinds its last weight.
    kind_weight = list(kind_weight) + [kind_weight[-1]] * (len(KIND_NAMES) - len(kind_weight))
    kind_weight = jnp.asarray(kind_weight[: len(KIND_NAMES)], dtype=jnp.float32)

    def loss_fn(params, ids, sc, stage, label, kind):
        y = forward(params, ids, sc, stage)
        w = kind_weight[kind]
        return (w * (y - label) ** 2).sum() / w.sum()

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(params, state, ids, sc, stage, label, kind):
        loss, grads = jax.value_and_grad(loss_fn)(params, ids, sc, stage, label, kind)
        updates, state = optimiser.update(grads, state, params)
        params = clip_params(optax.apply_updates(params, updates))
        return params, state, loss

    def sibling_loss_fn(params, ids, sc, stage, label, kind, g_ids, g_sc, g_stage, g_label, g_mask):
        plain = loss_fn(params, ids, sc, stage, label, kind)
        shape = g_label.shape
        y = forward(params, g_ids.reshape(-1, LANES), g_sc.reshape(-1, SCALARS), g_stage.reshape(-1)).reshape(shape)
        centred = centred_error(y, g_label, g_mask).sum() / jnp.maximum(g_mask.sum(), 1.0)
        return plain + sibling_weight * centred

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def sibling_step(params, state, ids, sc, stage, label, kind, g_ids, g_sc, g_stage, g_label, g_mask):
        loss, grads = jax.value_and_grad(sibling_loss_fn)(
            params, ids, sc, stage, label, kind, g_ids, g_sc, g_stage, g_label, g_mask
        )
        updates, state = optimiser.update(grads, state, params)
        params = clip_params(optax.apply_updates(params, updates))
        return params, state, loss

    return sibling_step if sibling_weight > 0 else step


GROUP_MOST = 16  # children of a group used (the best first); a position rarely has more


def load_groups(path):
    """The sibling groups of `net-data` (first record, count), or an empty array."""
    if not os.path.exists(path):
        return np.zeros((0, 2), np.int64)
    return np.fromfile(path, dtype="<u4").reshape(-1, 2).astype(np.int64)


def group_batch(records, groups, offsets, row_of):
    """The records of `groups` as arrays (groups x GROUP_MOST), with the mask of the members."""
    k = np.arange(GROUP_MOST)[None, :]
    mask = k < np.minimum(groups[:, 1:2], GROUP_MOST)
    index = np.where(mask, groups[:, 0:1] + k, groups[:, 0:1])
    rec = np.asarray(records[index.reshape(-1)])
    ids, sc, stage = batch_arrays(rec, offsets, row_of)
    g = len(groups)
    return (
        ids.reshape(g, GROUP_MOST, LANES),
        sc.reshape(g, GROUP_MOST, SCALARS),
        stage.reshape(g, GROUP_MOST),
        rec["label"].astype(np.float32).reshape(g, GROUP_MOST),
        mask.astype(np.float32),
        rec["empties"].reshape(g, GROUP_MOST),
    )


def evaluate_siblings(params, records, groups, offsets, row_of, block=4096):
    """Per band of empties (the children's): the centred error of the children's values within
    their group, and how often the child valued lowest (the move the network would play) has the
    lowest exact value (a best move)."""
    bands = {}
    for start in range(0, len(groups), block):
        g_ids, g_sc, g_stage, g_label, g_mask, g_empties = group_batch(records, groups[start : start + block], offsets, row_of)
        shape = g_label.shape
        y = np.asarray(predict(params, g_ids.reshape(-1, LANES), g_sc.reshape(-1, SCALARS), g_stage.reshape(-1))).reshape(shape)
        err = np.asarray(centred_error(jnp.asarray(y), jnp.asarray(g_label), jnp.asarray(g_mask)))
        big = 1e9
        chosen = np.argmin(np.where(g_mask > 0, y, big), axis=1)
        best = np.min(np.where(g_mask > 0, g_label, big), axis=1)
        hit = g_label[np.arange(len(y)), chosen] == best
        band = g_empties[:, 0] // 10
        for b in np.unique(band):
            m = band == b
            acc = bands.setdefault(int(b), [0, 0.0, 0.0, 0])
            acc[0] += int(m.sum())
            acc[1] += float(err[m].sum())
            acc[2] += float(g_mask[m].sum())
            acc[3] += int(hit[m].sum())
    lines = ["siblings              empties     groups  centred RMS  best move"]
    for b, (n, e, members, hits) in sorted(bands.items()):
        lines.append(f"{'':<21} {b * 10:>2}-{b * 10 + 9:<4} {n:>10}  {np.sqrt(e / members):>11.2f}  {100 * hits / n:>8.1f}%")
    return "\n".join(lines)


@jax.jit
def predict(params, ids, sc, stage):
    return forward(params, ids, sc, stage)


def quantise(params, lean=0.0, lean_below=40):
    """The integer weights of the file, as the engine computes with them; `lean` discs added to the
    output of every stage whose empties are all below `lean_below` (the lean towards the side to
    move, docs/network.md "Version 4")."""
    p = jax.tree_util.tree_map(np.asarray, params)
    emb = np.clip(np.rint(p["emb"] * 128), -127, 127).astype(np.int8)
    b1 = np.clip(np.rint(p["b1"] * 128), -32767, 32767).astype(np.int16)
    w2 = np.zeros((STAGES, HIDDEN2, INPUTS2), np.int16)
    w2[:, :, : HIDDEN + SCALARS] = np.clip(np.rint(p["w2"] * 64), -32767, 32767)
    b2 = np.rint(p["b2"] * 8192).astype(np.int32)
    w3 = np.clip(np.rint(p["w3"] * 64), -32767, 32767).astype(np.int16)
    b3 = np.rint(p["b3"] * 8192).astype(np.int32)
    for s in range(STAGES):
        if (s + 1) * BUCKET <= lean_below:
            b3[s] += int(round(lean * 8192))
    return emb, b1, w2, b2, w3, b3


def predict_quantised(q, ids, sc_raw, stage):
    """The engine's integer computation (src/eval/network/kernels.rs, plain twin), in 1/64 disc."""
    emb, b1, w2, b2, w3, b3 = q
    acc = b1.astype(np.int64)[None, :] + emb[ids].astype(np.int64).sum(axis=1)
    # The engine adds with saturation; the clipped weights keep the sums far inside i16.
    a1 = np.clip(acc, 0, 128)
    x = np.zeros((len(ids), INPUTS2), np.int64)
    x[:, :HIDDEN] = a1
    x[:, HIDDEN : HIDDEN + SCALARS] = sc_raw
    out = np.zeros(len(ids), np.int64)
    for s in np.unique(stage):
        m = stage == s
        z = x[m] @ w2[s].astype(np.int64).T + b2[s]
        a2 = np.clip(z >> 6, 0, 128)
        out[m] = a2 @ w3[s].astype(np.int64) + b3[s]
    return out >> 7


def fnv1a(data):
    """FNV-1a 64, the file's checksum (a few seconds for the file's megabytes)."""
    h = 0xCBF29CE484222325
    prime = 0x100000001B3
    mask = 0xFFFFFFFFFFFFFFFF
    for b in memoryview(data):
        h = ((h ^ b) * prime) & mask
    return h


def export(q, rows, net_version, path):
    emb, b1, w2, b2, w3, b3 = q
    out = bytearray(MAGIC)
    out += struct.pack("<H", VERSION)
    out += bytes([8, BUCKET, STAGES, HIDDEN, INPUTS2, HIDDEN2])
    out += struct.pack("<II", net_version, rows)
    out += emb.astype("i1").tobytes()
    out += b1.astype("<i2").tobytes()
    for s in range(STAGES):
        out += w2[s].astype("<i2").tobytes()
        out += b2[s].astype("<i4").tobytes()
        out += w3[s].astype("<i2").tobytes()
        out += struct.pack("<i", int(b3[s]))
    out += struct.pack("<Q", fnv1a(bytes(out)))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
    os.replace(tmp, path)


def read_oxnn(path, rows):
    """The integer weights of a network file (`quantise`'s tuple) and its network version, checked
    as the engine's reader checks them (src/eval/network/file.rs): the magic, the format version,
    the shape, the number of table entries (which must be the layout's `rows`), the length and the
    checksum. The file holds the canonical table entries' rows in the order of their entries, which
    is the order of the trainer's embedding rows (`layout.bin`), as `export` writes them."""
    with open(path, "rb") as f:
        data = f.read()

    def refuse(why):
        raise SystemExit(f"{path}: {why}")

    if data[: len(MAGIC)] != MAGIC:
        refuse("not a network file (no OXNNET magic)")
    if len(data) < len(MAGIC) + 8 + 8 + 8:
        refuse("the network file ends early")
    at = len(MAGIC)
    (version,) = struct.unpack_from("<H", data, at)
    if version != VERSION:
        refuse(f"network format version {version}: this trainer reads {VERSION}")
    n, bucket, stages, hidden, inputs2, hidden2 = data[at + 2 : at + 8]
    for what, got, want in [
        ("board side", n, 8),
        ("empties per stage", bucket, BUCKET),
        ("number of stages", stages, STAGES),
        ("first layer", hidden, HIDDEN),
        ("second layer's inputs", inputs2, INPUTS2),
        ("second layer", hidden2, HIDDEN2),
    ]:
        if got != want:
            refuse(f"the network's {what} is {got}, where the trainer's is {want}")
    net_version, count = struct.unpack_from("<II", data, at + 8)
    at += 16
    if count != rows:
        refuse(f"the network's number of table entries is {count}, the layout's {rows}")
    body = len(data) - 8
    expected = at + count * HIDDEN + HIDDEN * 2 + STAGES * (HIDDEN2 * INPUTS2 * 2 + HIDDEN2 * 4 + HIDDEN2 * 2 + 4)
    if body < expected:
        refuse("the network file ends early")
    if body > expected:
        refuse("bytes after the network file's checksum")
    if fnv1a(data[:body]) != struct.unpack_from("<Q", data, body)[0]:
        refuse("the network file's checksum does not match")

    def take(dtype, k):
        nonlocal at
        out = np.frombuffer(data, dtype=dtype, count=k, offset=at)
        at += out.nbytes
        return out.copy()

    emb = take("i1", count * HIDDEN).reshape(count, HIDDEN)
    b1 = take("<i2", HIDDEN).astype(np.int16)
    w2 = np.zeros((STAGES, HIDDEN2, INPUTS2), np.int16)
    b2 = np.zeros((STAGES, HIDDEN2), np.int32)
    w3 = np.zeros((STAGES, HIDDEN2), np.int16)
    b3 = np.zeros(STAGES, np.int32)
    for s in range(STAGES):
        w2[s] = take("<i2", HIDDEN2 * INPUTS2).reshape(HIDDEN2, INPUTS2)
        b2[s] = take("<i4", HIDDEN2)
        w3[s] = take("<i2", HIDDEN2)
        b3[s] = take("<i4", 1)[0]
    assert at == body
    return (emb, b1, w2, b2, w3, b3), net_version


def dequantise(q):
    """The float parameters whose `quantise` (no lean) is `q` exactly: each integer over its unit.
    The units are powers of two, so the quotients are exact in float32 (for |value| < 2^24) and
    rounding them back gives the same integers. A lean the file was written with stays in b3."""
    emb, b1, w2, b2, w3, b3 = q
    if np.any(w2[:, :, HIDDEN + SCALARS :]):
        raise SystemExit("the file's second layer has weights in its padding inputs, which the trainer does not have")
    for name, v in [("b2", b2), ("b3", b3)]:
        if np.any(np.abs(v.astype(np.int64)) >= 1 << 24):
            raise SystemExit(f"the file's {name} has values float32 cannot hold exactly")
    params = {
        "emb": emb.astype(np.float32) / 128,
        "b1": b1.astype(np.float32) / 128,
        "w2": w2[:, :, : HIDDEN + SCALARS].astype(np.float32) / 64,
        "b2": b2.astype(np.float32) / 8192,
        "w3": w3.astype(np.float32) / 64,
        "b3": b3.astype(np.float32) / 8192,
    }
    # The limits a training step clips to: a file from this trainer is within them.
    for name, limit in [("emb", EMB_MAX), ("w2", W2_MAX), ("w3", W3_MAX)]:
        over = int((np.abs(params[name]) > limit).sum())
        if over:
            print(f"warning: {over} of the file's {name} weights lie beyond the trainer's clip ±{limit:g}", flush=True)
    return {k: jnp.asarray(v) for k, v in params.items()}


def write_check(q, valid, offsets, row_of, path, count=256):
    """The first `count` validation records with the integer value this trainer computes for them
    (1/64 disc): tests/network.rs checks that the engine computes the same from the same file."""
    rec = np.asarray(valid[:count])
    ids, _, stage = batch_arrays(rec, offsets, row_of)
    values = predict_quantised(q, ids, rec["sc"].astype(np.int64), stage)
    out = bytearray(b"OXNNCHK1")
    out += struct.pack("<I", len(rec))
    for r, v in zip(rec, values):
        out += r.tobytes()
        out += struct.pack("<i", int(v))
    with open(path, "wb") as f:
        f.write(out)


def evaluate(params, q, valid, offsets, row_of, block=200_000):
    """Mean absolute error against the labels per band of empties and kind: the network (float
    and integer) beside the pattern evaluation the records carry."""
    bands = {}
    for start in range(0, len(valid), block):
        rec = np.asarray(valid[start : start + block])
        ids, sc, stage = batch_arrays(rec, offsets, row_of)
        yf = np.asarray(predict(params, ids, sc, stage))
        yq = predict_quantised(q, ids, rec["sc"].astype(np.int64), stage) / 64.0
        label = rec["label"].astype(np.float64)
        for kind in np.unique(rec["kind"]):
            m = rec["kind"] == kind
            e = rec["empties"][m] // 10
            for band in np.unique(e):
                mm = np.zeros(len(rec), bool)
                mm[np.flatnonzero(m)[e == band]] = True
                key = (int(kind), int(band))
                acc = bands.setdefault(key, [0, 0.0, 0.0, 0.0])
                acc[0] += int(mm.sum())
                acc[1] += float(np.abs(yf[mm] - label[mm]).sum())
                acc[2] += float(np.abs(np.clip(np.rint(yq[mm]), -63, 63) - label[mm]).sum())
                acc[3] += float(np.abs(rec["v9"][mm] - label[mm]).sum())
    lines = ["kind                  empties  positions  net(float)  net(int)  patterns"]
    for (kind, band), (n, ef, eq, ev) in sorted(bands.items()):
        lines.append(
            f"{KIND_NAMES[kind]:<21} {band * 10:>2}-{band * 10 + 9:<4} {n:>10}  {ef / n:>10.2f}  {eq / n:>8.2f}  {ev / n:>8.2f}"
        )
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="the folder of fit-eval net-data")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--block", type=int, default=1_000_000, help="records read and shuffled at once")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", default="1,1,3,3,3", help="loss weight of each label kind (game result, perfect line, searched, labelled exact, solved)")
    ap.add_argument("--checkpoint", default=None, help="resume from and save to this .npz")
    ap.add_argument("--version", type=int, default=1, help="the network's version written in the file")
    ap.add_argument("--out", required=True, help="the .oxnn file to write")
    ap.add_argument("--limit", type=int, default=0, help="train on the first N records only")
    ap.add_argument("--init", default=None, help="start from this checkpoint's parameters (a fine-tune: new optimiser, epoch 0)")
    ap.add_argument("--init-oxnn", default=None, help="start from this network file's integer weights, turned back into the float parameters (a fine-tune: new optimiser, epoch 0)")
    ap.add_argument("--evaluate", action="store_true", help="print the validation table of the starting parameters (--init, --init-oxnn or --checkpoint) and stop")
    ap.add_argument("--export-only", action="store_true", help="write the file from --checkpoint (or --init, --init-oxnn), no training")
    ap.add_argument("--lean", type=float, default=0.0, help="discs added to the integer model's output for the side to move, in the stages below --lean-below empties")
    ap.add_argument("--lean-below", type=int, default=40, help="the stages whose empties are all below this take --lean")
    ap.add_argument("--siblings", type=float, default=0.0, help="weight of the sibling loss (module docs); 0: none")
    ap.add_argument("--sibling-batch", type=int, default=512, help="sibling groups a step")
    args = ap.parse_args()
    if args.init and args.init_oxnn:
        ap.error("--init and --init-oxnn both give the starting parameters: give one")

    rows, offsets, row_of = load_layout(os.path.join(args.data, "layout.bin"))
    train = np.memmap(os.path.join(args.data, "train.bin"), dtype=RECORD, mode="r")
    valid = np.memmap(os.path.join(args.data, "valid.bin"), dtype=RECORD, mode="r")
    if args.limit:
        train = train[: args.limit]
    train_groups = load_groups(os.path.join(args.data, "groups-train.bin"))
    valid_groups = load_groups(os.path.join(args.data, "groups-valid.bin"))
    train_groups = train_groups[train_groups[:, 0] + train_groups[:, 1] <= len(train)]
    if args.siblings > 0 and len(train_groups) == 0:
        ap.error("--siblings: the data has no sibling groups (net-data of every-move solved files)")
    if len(train_groups) or len(valid_groups):
        print(f"{len(train_groups)} sibling groups to train on, {len(valid_groups)} held out", flush=True)
    print(f"{len(train)} training records, {len(valid)} validation, {rows} embedding rows", flush=True)

    key = jax.random.PRNGKey(args.seed)
    params = init(rows, key)
    if args.init:
        saved = np.load(args.init)
        params = {k: jnp.asarray(saved["p_" + k]) for k in params}
        print(f"parameters from {args.init}", flush=True)
    if args.init_oxnn:
        q, net_version = read_oxnn(args.init_oxnn, rows)
        params = dequantise(q)
        print(f"parameters from {args.init_oxnn} (network version {net_version})", flush=True)
    given = [float(w) for w in args.weights.split(",")]
    weights = np.array(given + [given[-1]] * (len(KIND_NAMES) - len(given)))[: len(KIND_NAMES)]
    kinds = np.bincount(train["kind"], minlength=len(KIND_NAMES))[: len(KIND_NAMES)]
    trained = int(kinds[weights > 0].sum())
    print(f"trained on {trained} records (kinds of weight 0 left out)", flush=True)
    steps_per_epoch = max(1, trained // args.batch)
    schedule = optax.cosine_decay_schedule(args.lr, steps_per_epoch * args.epochs, alpha=0.05)
    optimiser = optax.adam(schedule)
    state = optimiser.init(params)
    first_epoch = 0
    if args.checkpoint and os.path.exists(args.checkpoint):
        saved = np.load(args.checkpoint)
        params = {k: jnp.asarray(saved["p_" + k]) for k in params}
        leaves = [jnp.asarray(saved[f"s_{i}"]) for i in range(len(jax.tree_util.tree_leaves(state)))]
        state = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(state), leaves)
        first_epoch = int(saved["epoch"])
        print(f"resumed from {args.checkpoint} after epoch {first_epoch}", flush=True)
    def report():
        text = evaluate(params, quantise(params, args.lean, args.lean_below), valid, offsets, row_of)
        if len(valid_groups):
            text += "\n" + evaluate_siblings(params, valid, valid_groups, offsets, row_of)
        return text

    if args.evaluate:
        print(report(), flush=True)
        return 0
    if args.export_only:
        args.epochs = first_epoch
    step = make_step(optimiser, list(weights), args.siblings)
    rng = np.random.default_rng(args.seed)
    for _ in range(first_epoch):  # the same block order as an uninterrupted run
        rng.permutation(max(1, (len(train) + args.block - 1) // args.block))
    began = time.time()
    for epoch in range(first_epoch, args.epochs):
        blocks = rng.permutation(max(1, (len(train) + args.block - 1) // args.block))
        # The sibling groups drawn from a stream of the epoch's own, so a resumed run draws as an
        # uninterrupted one.
        group_rng = np.random.default_rng([args.seed, epoch])
        total, count = 0.0, 0
        for b in blocks:
            rec = np.array(train[b * args.block : (b + 1) * args.block])
            rec = rec[rng.permutation(len(rec))]
            rec = rec[weights[rec["kind"]] > 0]  # a kind of weight 0 is not trained on at all
            ids, sc, stage = batch_arrays(rec, offsets, row_of)
            label = rec["label"].astype(np.float32)
            kind = rec["kind"].astype(np.int32)
            for s in range(0, len(rec) - args.batch + 1, args.batch):
                sl = slice(s, s + args.batch)
                if args.siblings > 0:
                    picked = train_groups[group_rng.integers(0, len(train_groups), args.sibling_batch)]
                    siblings = group_batch(train, picked, offsets, row_of)[:5]
                    params, state, loss = step(params, state, ids[sl], sc[sl], stage[sl], label[sl], kind[sl], *siblings)
                else:
                    params, state, loss = step(params, state, ids[sl], sc[sl], stage[sl], label[sl], kind[sl])
                total += float(loss)
                count += 1
            print(
                f"epoch {epoch + 1} block {b}: loss {total / max(count, 1):.2f} ({time.time() - began:.0f} s)",
                flush=True,
            )
        if args.checkpoint:
            arrays = {"p_" + k: np.asarray(v) for k, v in params.items()}
            arrays.update({f"s_{i}": np.asarray(v) for i, v in enumerate(jax.tree_util.tree_leaves(state))})
            tmp = args.checkpoint + ".tmp.npz"
            np.savez(tmp, epoch=epoch + 1, **arrays)
            os.replace(tmp, args.checkpoint)
        print(f"after epoch {epoch + 1} ({time.time() - began:.0f} s):", flush=True)
        print(report(), flush=True)
    q = quantise(params, args.lean, args.lean_below)
    export(q, rows, args.version, args.out)
    check = os.path.join(os.path.dirname(args.out) or ".", "network-check-8.bin")
    write_check(q, valid, offsets, row_of, check)
    print(f"wrote {args.out} and {check}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
