// Not valid monoid IR: the carrier's max channel has the identity of add.
#bad = #monoid.carrier<m: max(0)>
