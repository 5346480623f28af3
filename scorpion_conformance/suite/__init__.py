"""The conformance suite: the step library, the pytest plugin and the scenario catalogue.

Nothing here imports the reference engine: scenarios talk to an implementation
only through the adapter protocol.
"""
