// Copies a value (a key, a DNS record) and says so to screen readers too.
import { useState } from 'react';

/** `what` names the value for screen readers ("Copy the DKIM record value"). */
export function CopyButton({ value, what }: { value: string; what: string }) {
  // Which value was copied: a button reused for another value (a second new key shown in the same
  // place) does not say "Copied" for a value that never was.
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(value);
      setTimeout(() => setCopied((c) => (c === value ? undefined : c)), 2000);
    } catch {
      // Clipboard refused (insecure context): offer the value to copy by hand.
      window.prompt('Copy this value:', value);
    }
  };
  return (
    <>
      <button type="button" className="button small secondary" onClick={() => void copy()}>
        {copied === value ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span className="visually-hidden" role="status">
        {copied === value ? `${what} copied to the clipboard` : ''}
      </span>
    </>
  );
}
