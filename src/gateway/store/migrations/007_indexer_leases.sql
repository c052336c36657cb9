-- Which instance indexes a chain when several share one database: the holder of the chain's
-- lease (`expires_at`, ms since the epoch, renewed with every step and every batch's commit). The
-- others stand by and take the lease over once it has expired (its holder died or stalled). A
-- batch commits only while its indexer still holds the lease (the update of this row is in the
-- batch's transaction), so a holder that stalled past its lease cannot write over its successor.
CREATE TABLE indexer_leases (
  chain_id INTEGER PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
