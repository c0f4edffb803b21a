"""padding.py - scenario 3: shapes that TPU tiling would pad, next to
aligned twins.  bf16[262144,130] would pad its minor dim to 256 (1.97x) in
the default layout, but XLA lays the parameter out {0,1} (262144 minor), so
nothing is padded and padding-waste must stay silent, as on its aligned
twin bf16[262144,128].  bf16[24,130,130,130] has no layout without
padding (any two of its 130s are padded to 256 lanes and 144 sublanes,
2.2x): padding-waste must flag it; bf16[24,128,128,128] is its twin.  A
(512,129,1024) f32 stack pads 129 rows to 136 (5%): a near miss that stays
silent at the default ratio."""
import jax.numpy as jnp

from common import Case, sds


def step(x):
    return jnp.tanh(x) * 2.0 + 1.0


def cases(mesh, target):
    def arg(shape, dtype):
        return (sds(mesh, shape, dtype, ()),)
    return [
        Case("minor130", step, arg((262144, 130), jnp.bfloat16), expect={"padding-waste": None},
             about="minor dimension 130: XLA picks the {0,1} layout, no padding"),
        Case("minor128", step, arg((262144, 128), jnp.bfloat16), expect={"padding-waste": None},
             about="aligned twin of minor130"),
        Case("cube130", step, arg((24, 130, 130, 130), jnp.bfloat16),
             expect={"padding-waste": "bf16[24,130,130,130]"},
             about="three dimensions of 130: no layout avoids the padding"),
        Case("cube128", step, arg((24, 128, 128, 128), jnp.bfloat16), expect={"padding-waste": None},
             about="aligned twin of cube130"),
        Case("rows129", step, arg((512, 129, 1024), jnp.float32), expect={"padding-waste": None},
             about="129 rows pad to 136: below the default ratio"),
        Case("rows128", step, arg((512, 128, 1024), jnp.float32), expect={"padding-waste": None},
             about="aligned twin of rows129"),
    ]
