// What the domain page warns of in the records it shows (pages/domains.tsx).

/**
 * The service's own host name when it is a bare label (`vm`, a trial's machine name): the return-path
 * MX points at it, and no receiver can find it. Undefined when it is a full name.
 */
export function bareServiceHost(records: readonly { record: string; value: string }[]): string | undefined {
  const mx = records.find((r) => r.record === 'return_path_mx')?.value.replace(/\.$/, '');
  return mx !== undefined && mx !== '' && !mx.includes('.') ? mx : undefined;
}
