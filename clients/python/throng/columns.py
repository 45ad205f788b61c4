"""numpy columns <-> the packed repeated fields of AgentBatch, VehicleBatch, AgentResults
and VehicleResults, with no Python loop per agent.

Why wire format: protobuf's Python API copies a repeated field element by element (about
1 ms per 10,000 values per column, measured with Debian's python3-protobuf), while a
packed float column on the wire is just its little-endian bytes and protobuf parses or
serialises a whole sub-message in microseconds. So a batch is encoded here with numpy and
merged into its message with one parse; results are serialised once and sliced into
arrays. Integer columns are varints, encoded and decoded with vectorised numpy.
"""

import numpy as np
from google.protobuf.descriptor import FieldDescriptor as _F

_FIXED = {_F.TYPE_FLOAT: np.dtype("<f4"), _F.TYPE_DOUBLE: np.dtype("<f8")}
_VARINT = {_F.TYPE_UINT32: (np.dtype(np.uint32), 0xFFFFFFFF),
           _F.TYPE_UINT64: (np.dtype(np.uint64), 0xFFFFFFFFFFFFFFFF)}


def _varint(value):
    """One varint (tags and lengths)."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_varint(buf, pos):
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def encode_varints(values):
    """uint64 array -> concatenated varints."""
    v = np.asarray(values, dtype=np.uint64)
    if v.size == 0:
        return b""
    if int(v.max()) < 0x80:  # the common case: flags, status, small ids
        return v.astype(np.uint8).tobytes()
    nbytes = np.ones(v.size, dtype=np.int64)
    for k in range(1, 10):
        nbytes += v >= np.uint64(1 << (7 * k))
    starts = np.cumsum(nbytes) - nbytes
    out = np.empty(int(nbytes.sum()), dtype=np.uint8)
    for k in range(int(nbytes.max())):
        m = nbytes > k
        byte = ((v[m] >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8)
        byte |= np.where(nbytes[m] > k + 1, 0x80, 0).astype(np.uint8)  # continuation bit
        out[starts[m] + k] = byte
    return out.tobytes()


def decode_varints(buf):
    """Concatenated varints -> uint64 array."""
    b = np.frombuffer(buf, dtype=np.uint8)
    if b.size == 0:
        return np.zeros(0, dtype=np.uint64)
    last = b < 0x80
    if last.all():
        return b.astype(np.uint64)
    ends = np.flatnonzero(last)
    starts = np.concatenate(([0], ends[:-1] + 1))
    # Each byte's index within its varint gives its 7-bit shift; a sum per varint joins them.
    index = np.arange(ends[-1] + 1) - np.repeat(starts, ends - starts + 1)
    parts = (b[: ends[-1] + 1] & 0x7F).astype(np.uint64) << (7 * index).astype(np.uint64)
    return np.add.reduceat(parts, starts)


def _column_bytes(field, values, where):
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{where}: a column must be one-dimensional, got shape {arr.shape}")
    if field.type in _FIXED:
        return arr.astype(_FIXED[field.type], copy=False).tobytes()
    if field.type in _VARINT:
        if arr.size and arr.dtype.kind not in "iub":
            raise ValueError(f"{where}: integer column, got dtype {arr.dtype}")
        if arr.size and (int(arr.min()) < 0 or int(arr.max()) > _VARINT[field.type][1]):
            raise ValueError(f"{where}: values out of range for {field.name}")
        return encode_varints(arr.astype(np.uint64))
    raise TypeError(f"{where}: field type {field.type} is not a column")


def encode(message_cls, columns):
    """Wire bytes of `message_cls` (e.g. pb.AgentBatch) holding `columns`, a dict of
    proto field name -> 1-D array. Empty or None columns are left out (absent)."""
    fields = message_cls.DESCRIPTOR.fields_by_name
    name = message_cls.DESCRIPTOR.name
    parts = []
    for key in sorted(columns, key=lambda k: fields[k].number if k in fields else -1):
        if key not in fields:
            raise ValueError(f"{name}: no column '{key}' (have {', '.join(fields)})")
        values = columns[key]
        if values is None:
            continue
        payload = _column_bytes(fields[key], values, f"{name}.{key}")
        if payload:
            parts += [_varint(fields[key].number << 3 | 2), _varint(len(payload)), payload]
    return b"".join(parts)


def fill(message, columns):
    """Replaces the columns of a message in place (message.agents, say) with `columns`."""
    message.Clear()
    if columns:
        message.MergeFromString(encode(type(message), columns))
    return message


def decode(message):
    """Every repeated scalar field of `message` as a numpy array (empty when absent)."""
    buf = message.SerializeToString()
    fields = message.DESCRIPTOR.fields_by_number
    chunks = {}
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 2:  # packed: the serialiser packs every proto3 repeated scalar
            length, pos = _read_varint(buf, pos)
            chunks.setdefault(number, []).append(buf[pos:pos + length])
            pos += length
        else:  # a lone scalar field (not a column): skip it
            if wire == 0:
                _, pos = _read_varint(buf, pos)
            else:
                pos += {1: 8, 5: 4}[wire]
    out = {}
    for number, field in fields.items():
        if field.label != _F.LABEL_REPEATED:
            continue
        data = b"".join(chunks.get(number, ()))
        if field.type in _FIXED:
            out[field.name] = np.frombuffer(data, dtype=_FIXED[field.type]).astype(
                _FIXED[field.type].newbyteorder("="))  # a writable, native copy
        elif field.type in _VARINT:
            out[field.name] = decode_varints(data).astype(_VARINT[field.type][0])
    return out
