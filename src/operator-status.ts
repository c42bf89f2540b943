// What `txmail status` prints: how the service stands, as the operator needs it at a glance. Each
// concern adds one section (its figures for --json, its lines for people); a section reads the shared
// database, so the answer covers every process, not only the one running the command.

export interface StatusSection {
  /** The section's key in `--json` output and its heading. */
  name: string;
  title: string;
  /** Machine-readable figures. */
  json: unknown;
  /** What a person reads, one line each; empty: the section prints "nothing to report". */
  lines: string[];
  /** Something needs the operator's attention (the command then exits 1). */
  alert: boolean;
}

export interface StatusSources {
  queueDepth(): Promise<{ waiting: number; oldestCreatedAt: number | undefined }>;
  processes(): Promise<{ id: string; host: string; pid: number; started_at: number; heartbeat_at: number }[]>;
  now(): number;
}

/** The queue and the live processes: the sections every deployment has. */
export async function coreSections(s: StatusSources): Promise<StatusSection[]> {
  const now = s.now();
  const depth = await s.queueDepth();
  const oldest =
    depth.oldestCreatedAt === undefined ? 0 : Math.max(0, Math.round((now - depth.oldestCreatedAt) / 1000));
  const processes = await s.processes();
  return [
    {
      name: 'queue',
      title: 'Queue',
      json: { waiting: depth.waiting, oldest_age_seconds: oldest },
      lines: [
        `${depth.waiting} messages waiting for delivery${depth.waiting > 0 ? `, the oldest for ${oldest} s` : ''}`,
      ],
      alert: false,
    },
    {
      name: 'processes',
      title: 'Processes',
      json: processes.map((p) => ({
        id: p.id,
        host: p.host,
        pid: p.pid,
        started_at: new Date(p.started_at).toISOString(),
        heartbeat_age_seconds: Math.max(0, Math.round((now - p.heartbeat_at) / 1000)),
      })),
      lines: processes.map(
        (p) =>
          `${p.host} pid ${p.pid}, up since ${new Date(p.started_at).toISOString()}, last heartbeat ${Math.max(0, Math.round((now - p.heartbeat_at) / 1000))} s ago`,
      ),
      alert: false,
    },
  ];
}

/** The report as people read it. */
export function formatStatus(sections: StatusSection[]): string {
  return sections
    .map(
      (s) =>
        `${s.title}${s.alert ? '  (!)' : ''}\n${(s.lines.length ? s.lines : ['nothing to report']).map((l) => `  ${l}`).join('\n')}`,
    )
    .join('\n\n');
}

/** The report for --json: each section's figures under its name, and whether any needs attention. */
export function statusJson(sections: StatusSection[]): Record<string, unknown> {
  return {
    alert: sections.some((s) => s.alert),
    ...Object.fromEntries(sections.map((s) => [s.name, s.json])),
  };
}
