"""Huawei Ascend CANN ``aclnn``: the mutual type-deduction table (``promotion.py``)."""

from promote_cli.framework import Framework
from promote_cli.shared.aclnn import COLUMN

FRAMEWORK = Framework(
    name="ascend",
    title="Ascend aclnn",
    source="CANN aclnn 互推导关系 (mutual type-deduction) table",
    version="",
    notation="ascend",
    column=COLUMN,
    oracle="its runtime needs Ascend hardware; nothing installs here to ask",
    operations="the Ascend table defines how two types promote, not what any operation returns",
)
