// The sentence a domain's check ends with on its page (pages/domains.tsx).

/** The parts of a domain's answer (DomainDetail) the sentence reads. */
export interface CheckedDomain {
  status: string;
  unicode_name: string;
  records: { required: boolean; status: string }[];
}

/** What a check came to, in one sentence: a look-up that failed is DNS trouble, not a wrong record. */
export function checkSummary(checked: CheckedDomain): string {
  if (checked.status === 'verified') return `${checked.unicode_name} is verified.`;
  const required = checked.records.filter((r) => r.required);
  const failed = required.filter((r) => r.status === 'error').length;
  const wrong = required.filter((r) => r.status !== 'found' && r.status !== 'error').length;
  const records = (n: number) => (n === 1 ? '1 required record' : `${n} required records`);
  const parts = [
    ...(wrong > 0 ? [`${records(wrong)} ${wrong === 1 ? 'is' : 'are'} not right yet`] : []),
    ...(failed > 0
      ? [`${records(failed)} could not be checked (the DNS look-up failed; try again in a moment)`]
      : []),
  ];
  return parts.length === 0
    ? `Checked: ${checked.unicode_name} is not verified yet.`
    : `Checked: ${parts.join('; ')}.`;
}
