"""The networks the papers analyze, evaluated over exact domains and in float64.

:class:`SelfAttentionNetwork` is levine2020's eq. (3) network (sec. 2.2,
l.69-82), optionally with residual connections (A.4, fig. 5).
"""

from seprank.models.network import DOMAINS, MAX_NETWORK_PRIME, SelfAttentionNetwork, parse_domain

__all__ = ["DOMAINS", "MAX_NETWORK_PRIME", "SelfAttentionNetwork", "parse_domain"]
