// The "Destination blocks" section of `txmail status` (operator-status.ts): every destination paused
// for a source address after sender blocks, read from the shared database. An alert while any stands:
// the address has a reputation problem to look into (which list holds it and its removal request, or
// the provider's reply quoted in the section) before the pause ends (ARCHITECTURE.md, "Destination blocks").
import type { DestinationBlock } from '../db/destination-blocks-repo.js';
import type { StatusSection } from '../operator-status.js';

export async function destinationBlocksSection(
  read: () => Promise<DestinationBlock[]>,
  now: number,
): Promise<StatusSection> {
  const blocks = await read();
  const address = (ip: string) => (ip === '' ? "the system's choice of address" : ip);
  return {
    name: 'destination_blocks',
    title: 'Destination blocks',
    json: blocks.map((b) => ({
      destination: b.destination,
      source_ip: b.sourceIp === '' ? null : b.sourceIp,
      accounts: b.accounts,
      paused_at: new Date(b.pausedAt).toISOString(),
      paused_until: new Date(b.pausedUntil).toISOString(),
      remaining_seconds: Math.max(0, Math.round((b.pausedUntil - now) / 1000)),
      reply: b.reply,
    })),
    lines: blocks.map(
      (b) =>
        `${b.destination} refuses mail from ${address(b.sourceIp)} (${b.accounts === 1 ? 'one account' : `${b.accounts} accounts`} refused as sender blocks); paused until ${new Date(b.pausedUntil).toISOString()}; last reply: ${b.reply}`,
    ),
    alert: blocks.length > 0,
  };
}
