"""Rules more than one framework applies, below every framework's directory: a framework imports
no other framework's package, so what two of them share is declared here, once, and each
imports it (``tests/properties/test_architecture.py`` holds both).

- ``aclnn``: the short names of Huawei's aclnn deduction table (Ascend's notation), in which
  Ascend's and MindSpore's tables are written;
- ``c10``: PyTorch's c10 promotion (``promoteTypes`` and ``result_type``'s categories), which
  the torch policy is, Paddle's table starts from and Keras's torch backend calls;
- ``jax_names``, ``jax_lattice``: JAX's byte notation and its lattice with weak types, which
  the jax policy is and Keras's jax backend calls (``jnp.add``);
- ``numpy_names``, ``numpy_promotion``, ``numpy_legacy`` and ``ml_dtypes-<release>.json``:
  NumPy's type codes and promotion (NEP 50, with each measured release of ml_dtypes, and NumPy
  1.26's value-based casting), which the numpy policy is, TF-NumPy's arithmetic calls
  (``np.result_type``) and array-api-strict's ``matmul`` applies.

Each framework's own module (``frameworks/<name>/promotion.py``) binds what it applies to its
entry and keeps the docstring that says where its rules come from.
"""
