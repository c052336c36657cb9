import type { SqlDatabase } from '../store/SqlDatabase.ts'

/**
 * Reserves `salt` on `chainId` for `creator` until `reservedUntil`: true when it is now theirs.
 * A salt reserved by another creator whose reservation has not ended is refused (false); the same
 * creator may prepare with their salt again (a retry, or after the plan expired). One conditional
 * statement per step, so two concurrent prepares never both get one salt for different creators.
 *
 * @example
 * if (!(await reserveLaunchSalt({ db, chainId, salt, creator, keyPrefix, predictedToken, now, reservedUntil }))) throw …
 * // → true: the salt is now this creator's until reservedUntil; false: another creator holds it
 */
export async function reserveLaunchSalt({
  db,
  chainId,
  salt,
  creator,
  keyPrefix,
  predictedToken,
  now,
  reservedUntil,
}: {
  db: SqlDatabase
  chainId: number
  salt: string
  creator: string
  keyPrefix: string
  predictedToken: string
  now: number
  reservedUntil: number
}): Promise<boolean> {
  const inserted = await db.execute(
    `INSERT INTO launch_salts (chain_id, salt, creator, key_prefix, predicted_token, reserved_at, reserved_until) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (chain_id, salt) DO NOTHING`,
    [chainId, salt, creator, keyPrefix, predictedToken, now, reservedUntil],
  )
  if (inserted === 1) return true
  const taken = await db.execute(
    `UPDATE launch_salts SET creator = $1, key_prefix = $2, predicted_token = $3, reserved_at = $4, reserved_until = $5
     WHERE chain_id = $6 AND salt = $7 AND (creator = $1 OR reserved_until <= $4)`,
    [creator, keyPrefix, predictedToken, now, reservedUntil, chainId, salt],
  )
  return taken === 1
}
