"""Rules more than one framework applies, below every framework's directory: a framework imports
no other framework's package, so what two of them share is declared here, once, and each
imports it (``tests/test_architecture.py`` holds both).

- ``aclnn``: the short names of Huawei's aclnn deduction table (Ascend's notation), in which
  Ascend's and MindSpore's tables are written;
- ``c10``: PyTorch's c10 promotion (``promoteTypes`` and ``result_type``'s categories), which
  the torch policy is, Paddle's table starts from and Keras's torch backend calls.
"""
