"""Several server processes behind one address: the proxy's configuration and the
`mahjong-hall cluster` launcher (docs/scaling.md)."""
