-- The gateway's read model: what the indexer derives from the launchpad's contracts, the
-- launched pools and the launched tokens. One file for SQLite and PostgreSQL: portable types only
-- (TEXT, INTEGER, BIGINT, DOUBLE PRECISION). Addresses and hashes are lowercase hex TEXT; amounts
-- are decimal TEXT (uint256 does not fit an integer column), and where an amount orders rows its
-- `*_key` column holds it zero-padded to 78 digits, so TEXT order is numeric order on both engines.
-- Times are Unix seconds (chain time); `updated_at` columns are ISO 8601 wall-clock times.

-- Where the indexer stands, per chain.
CREATE TABLE indexer_state (
  chain_id INTEGER PRIMARY KEY,
  block_number BIGINT NOT NULL,
  block_hash TEXT NOT NULL,
  block_timestamp BIGINT NOT NULL,
  head_block BIGINT NOT NULL,
  safe_block BIGINT NOT NULL,
  finalized_block BIGINT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The recent blocks the indexer read, to find where a reorganised chain forked.
CREATE TABLE indexed_blocks (
  chain_id INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  block_hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  block_timestamp BIGINT NOT NULL,
  PRIMARY KEY (chain_id, block_number)
);

CREATE TABLE tokens (
  chain_id INTEGER NOT NULL,
  address TEXT NOT NULL,
  name TEXT NOT NULL,
  symbol TEXT NOT NULL,
  extra_metadata TEXT NOT NULL,
  decimals INTEGER NOT NULL,
  total_supply TEXT NOT NULL,
  creator TEXT NOT NULL,
  admin TEXT NOT NULL,
  factory TEXT NOT NULL,
  pool TEXT NOT NULL,
  paired_token TEXT NOT NULL,
  token_is_token0 INTEGER NOT NULL,
  pool_fee INTEGER NOT NULL,
  tick_spacing INTEGER NOT NULL,
  tick_lower INTEGER NOT NULL,
  tick_upper INTEGER NOT NULL,
  position_liquidity TEXT NOT NULL,
  pool_supply TEXT NOT NULL,
  vesting_supply TEXT NOT NULL,
  salt TEXT NOT NULL,
  starting_tick INTEGER NOT NULL,
  launch_tx TEXT NOT NULL,
  launch_block BIGINT NOT NULL,
  launch_log_index INTEGER NOT NULL,
  launched_at BIGINT NOT NULL,
  dev_buy_amount_in TEXT,
  dev_buy_amount_out TEXT,
  -- The pool's starting price, and its price after the last swap.
  initial_sqrt_price_x96 TEXT NOT NULL,
  initial_tick INTEGER NOT NULL,
  sqrt_price_x96 TEXT NOT NULL,
  tick INTEGER NOT NULL,
  -- The paired asset the pool holds: swaps' paired amounts less the fees collected from it.
  pool_paired_balance TEXT NOT NULL,
  trade_count BIGINT NOT NULL,
  last_trade_block BIGINT,
  holder_count BIGINT NOT NULL,
  -- The block of the last balance change: a holder page's cursor is stale once it moves.
  holders_block BIGINT NOT NULL,
  -- The block of the last change to this row's on-chain fields.
  changed_block BIGINT NOT NULL,
  updated_at TEXT NOT NULL,
  -- Ranked values, recomputed by the periodic refresh (`ranked_at`, at `ranked_block`).
  market_cap TEXT NOT NULL,
  market_cap_key TEXT NOT NULL,
  liquidity TEXT NOT NULL,
  liquidity_key TEXT NOT NULL,
  volume_24h TEXT NOT NULL,
  volume_24h_key TEXT NOT NULL,
  trades_24h BIGINT NOT NULL,
  trending_score DOUBLE PRECISION NOT NULL,
  ranked_at TEXT NOT NULL,
  ranked_block BIGINT NOT NULL,
  PRIMARY KEY (chain_id, address)
);
CREATE INDEX tokens_newest ON tokens (launched_at, chain_id, address);
CREATE INDEX tokens_creator ON tokens (creator, launch_block, launch_log_index);
CREATE INDEX tokens_market_cap ON tokens (market_cap_key, chain_id, address);
CREATE INDEX tokens_liquidity ON tokens (liquidity_key, chain_id, address);
CREATE INDEX tokens_volume_24h ON tokens (volume_24h_key, chain_id, address);
CREATE INDEX tokens_trending ON tokens (trending_score, chain_id, address);
CREATE INDEX tokens_pool ON tokens (chain_id, pool);

CREATE TABLE balances (
  chain_id INTEGER NOT NULL,
  token TEXT NOT NULL,
  holder TEXT NOT NULL,
  balance TEXT NOT NULL,
  balance_key TEXT NOT NULL,
  changed_block BIGINT NOT NULL,
  PRIMARY KEY (chain_id, token, holder)
);
CREATE INDEX balances_ranked ON balances (chain_id, token, balance_key, holder);
CREATE INDEX balances_holder ON balances (holder, chain_id, token);

CREATE TABLE transfers (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  token TEXT NOT NULL,
  from_address TEXT NOT NULL,
  to_address TEXT NOT NULL,
  amount TEXT NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX transfers_block ON transfers (chain_id, block_number);

CREATE TABLE trades (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  block_time BIGINT NOT NULL,
  token TEXT NOT NULL,
  pool TEXT NOT NULL,
  side TEXT NOT NULL,
  trader TEXT NOT NULL,
  recipient TEXT NOT NULL,
  amount_token TEXT NOT NULL,
  amount_paired TEXT NOT NULL,
  sqrt_price_x96 TEXT NOT NULL,
  tick INTEGER NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX trades_token ON trades (chain_id, token, block_number, log_index);
CREATE INDEX trades_time ON trades (chain_id, block_time);
CREATE INDEX trades_block ON trades (chain_id, block_number);

-- A launch's reward recipients, with what the locker owes each and what each claimed.
CREATE TABLE fee_positions (
  chain_id INTEGER NOT NULL,
  token TEXT NOT NULL,
  recipient TEXT NOT NULL,
  fee_locker TEXT NOT NULL,
  position_index INTEGER NOT NULL,
  bps INTEGER NOT NULL,
  accrued_token TEXT NOT NULL,
  accrued_paired TEXT NOT NULL,
  claimed_token TEXT NOT NULL,
  claimed_paired TEXT NOT NULL,
  claim_count BIGINT NOT NULL,
  last_claim_tx TEXT,
  last_claim_block BIGINT,
  last_claim_at BIGINT,
  created_block BIGINT NOT NULL,
  changed_block BIGINT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (chain_id, token, recipient)
);
CREATE INDEX fee_positions_recipient ON fee_positions (recipient, chain_id, token);

-- Fee collections, accruals and claims, kept to undo them after a reorganisation.
CREATE TABLE fee_events (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  block_time BIGINT NOT NULL,
  kind TEXT NOT NULL,
  token TEXT NOT NULL,
  recipient TEXT,
  amount_token TEXT NOT NULL,
  amount_paired TEXT NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX fee_events_block ON fee_events (chain_id, block_number);

CREATE TABLE vesting_positions (
  chain_id INTEGER NOT NULL,
  position_id BIGINT NOT NULL,
  vault TEXT NOT NULL,
  token TEXT NOT NULL,
  beneficiary TEXT NOT NULL,
  amount TEXT NOT NULL,
  claimed TEXT NOT NULL,
  claim_count BIGINT NOT NULL,
  start_time BIGINT NOT NULL,
  lockup_end BIGINT NOT NULL,
  vesting_end BIGINT NOT NULL,
  created_tx TEXT NOT NULL,
  created_block BIGINT NOT NULL,
  last_claim_tx TEXT,
  last_claim_block BIGINT,
  last_claim_at BIGINT,
  changed_block BIGINT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (chain_id, position_id)
);
CREATE INDEX vesting_positions_beneficiary ON vesting_positions (beneficiary, chain_id, position_id);
CREATE INDEX vesting_positions_token ON vesting_positions (chain_id, token);

CREATE TABLE vesting_claims (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  block_time BIGINT NOT NULL,
  position_id BIGINT NOT NULL,
  amount TEXT NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX vesting_claims_block ON vesting_claims (chain_id, block_number);

-- Every name, symbol, extra-metadata or admin change, with all four values after it: undoing
-- changes (a reorganisation) restores the latest remaining row.
CREATE TABLE token_updates (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number BIGINT NOT NULL,
  token TEXT NOT NULL,
  name TEXT NOT NULL,
  symbol TEXT NOT NULL,
  extra_metadata TEXT NOT NULL,
  admin TEXT NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX token_updates_token ON token_updates (chain_id, token, block_number, log_index);
CREATE INDEX token_updates_block ON token_updates (chain_id, block_number);

-- Metadata documents by CID (canonical JSON; the CID is of these exact bytes).
CREATE TABLE documents (
  cid TEXT PRIMARY KEY,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Creator-signed announcements (EIP-712; verified before they are stored).
CREATE TABLE announcements (
  id TEXT PRIMARY KEY,
  chain_id INTEGER NOT NULL,
  token TEXT NOT NULL,
  author TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  issued_at BIGINT NOT NULL,
  signature TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX announcements_token ON announcements (chain_id, token, issued_at, id);

-- One row per ranked sort: its ordering's version moves only when a refresh changed the order.
CREATE TABLE rankings (
  sort TEXT PRIMARY KEY,
  version BIGINT NOT NULL,
  digest TEXT NOT NULL,
  refreshed_at TEXT NOT NULL
);
