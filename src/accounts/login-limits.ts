// How many failed log-ins the dashboard takes, counted so that nobody elsewhere can lock an owner out.
// A browser that has logged in to the account before (its device cookie, login-devices.ts) has a count
// of its own, per (device, address), and nothing else: a flood from anywhere else never reaches it.
// Every other attempt is counted per (IP, address), the guesser's own budget; per address, a much higher
// ceiling, which only many networks together reach; and per IP, a ceiling across addresses against one
// network trying a common password on many accounts (password spraying). IPs are counted as client
// networks (client-network.ts). Every count lives in attempt_counts, shared by every API process; an
// attempt is counted before the password is checked and given back when it was right.
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import { AttemptLimiter, type AttemptDecision } from './attempt-limiter.js';
import { clientNetwork } from '../client-network.js';

/** A limit and the key it counts. */
type Count = [AttemptLimiter, string];

export const LOGIN_WINDOW_MS = 15 * 60_000;

/** Failed log-ins per 15 minutes. */
export const LOGIN_LIMITS = {
  /**
   * A browser the account's owner logged in from, for that account's address: as much as a network
   * gets, so a stolen device cookie guesses no faster than anyone; exempt from the two ceilings.
   */
  perDeviceAndAddress: 10,
  /** One network guessing one address: a person who forgot the password, or a guesser, stops here. */
  perIpAndAddress: 10,
  /** One address from everywhere: reached only by ten networks or more spending their whole budget. */
  perAddress: 100,
  /** One network across addresses: room for a few people behind one NAT, not for spraying. */
  perIp: 30,
} as const;

export class LoginLimits {
  private readonly deviceAndAddress: AttemptLimiter;
  private readonly ipAndAddress: AttemptLimiter;
  private readonly address: AttemptLimiter;
  private readonly ip: AttemptLimiter;

  constructor(attempts: AttemptCountsRepo) {
    this.deviceAndAddress = new AttemptLimiter(
      attempts,
      'login-device-address',
      LOGIN_LIMITS.perDeviceAndAddress,
      LOGIN_WINDOW_MS,
    );
    // Scopes of their own: the counts of the old single `login` limit are never read again.
    this.ipAndAddress = new AttemptLimiter(
      attempts,
      'login-ip-address',
      LOGIN_LIMITS.perIpAndAddress,
      LOGIN_WINDOW_MS,
    );
    this.address = new AttemptLimiter(attempts, 'login-address', LOGIN_LIMITS.perAddress, LOGIN_WINDOW_MS);
    this.ip = new AttemptLimiter(attempts, 'login-ip', LOGIN_LIMITS.perIp, LOGIN_WINDOW_MS);
  }

  /**
   * Counts one log-in attempt: from a recognised browser (`device`: the hash of a device id that
   * login-devices.ts found bound to this address) against that device's count alone; otherwise against
   * all three limits, or against none: a refused attempt gives back what it took, so an attacker
   * stopped by one limit spends nothing of the others.
   */
  async take(ip: string, email: string, now: number, device?: string): Promise<AttemptDecision> {
    if (device !== undefined) return this.deviceAndAddress.take([this.deviceKey(device, email)], now);
    const taken: Count[] = [];
    for (const [limiter, key] of this.keys(ip, email)) {
      const d = await limiter.take([key], now);
      if (!d.allowed) {
        for (const [l, k] of taken) await l.refund(k, now);
        return d;
      }
      taken.push([limiter, key]);
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /**
   * The password was right: the failures of this device (or this network) for the address are
   * forgotten, and a network's attempt is given back to the address and network ceilings (a success
   * never clears what others spent there).
   */
  async succeeded(ip: string, email: string, now: number, device?: string): Promise<void> {
    if (device !== undefined) {
      await this.deviceAndAddress.reset(this.deviceKey(device, email));
      return;
    }
    const [[pair, pairKey], [network, networkKey], [address, addressKey]] = this.keys(ip, email);
    await pair.reset(pairKey);
    await network.refund(networkKey, now);
    await address.refund(addressKey, now);
  }

  private deviceKey(device: string, email: string): string {
    return `${device}\n${email.trim().toLowerCase()}`;
  }

  /** The most specific first: a network past its own budget is refused before it touches the others. */
  private keys(ip: string, email: string): [Count, Count, Count] {
    const network = clientNetwork(ip);
    const address = email.trim().toLowerCase();
    return [
      [this.ipAndAddress, `${network}\n${address}`],
      [this.ip, network],
      [this.address, address],
    ];
  }
}
