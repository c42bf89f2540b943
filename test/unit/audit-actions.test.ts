// Every audit action the server records has words on the dashboard's Audit log page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC, ROUTE_RULES } from '../../src/http/permissions.js';
import { ACTION_WORDS } from '../../web/src/components/audit-actions.js';

/** The actions written outside the routes' table: `action: '…'` in the source that records them. */
function actionsRecordedInCode(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...actionsRecordedInCode(path));
    else if (path.endsWith('.ts'))
      for (const m of readFileSync(path, 'utf8').matchAll(/action: '([a-z_]+\.[a-z_]+)'/g)) found.push(m[1]!);
  }
  return found;
}

describe('the audit actions in words', () => {
  it('has words for every action the server records', () => {
    const fromTable = Object.values(ROUTE_RULES).flatMap((rule) =>
      rule !== PUBLIC && rule.audit !== undefined ? [rule.audit] : [],
    );
    const fromCode = actionsRecordedInCode(join(import.meta.dirname, '../../src'));
    // The operator's commands name theirs as arguments (operator-commands.ts operatorAudit).
    const operator = [
      ...readFileSync(join(import.meta.dirname, '../../src/operator-commands.ts'), 'utf8').matchAll(
        /operatorAudit\([^)]*?'([a-z_]+\.[a-z_]+)'/g,
      ),
    ].map((m) => m[1]!);
    expect(fromTable.length).toBeGreaterThan(20);
    expect(operator).toContain('account.plan_changed');
    for (const action of new Set([...fromTable, ...fromCode, ...operator]))
      expect(ACTION_WORDS[action], action).toBeDefined();
  });
});
