// Copies a value (a key, a DNS record) and says so to screen readers too.
import { useState } from 'react';

/** `what` names the value for screen readers ("Copy the DKIM record value"). */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (insecure context): offer the value to copy by hand.
      window.prompt('Copy this value:', value);
    }
  };
  return (
    <>
      <button type="button" className="button small secondary" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span className="visually-hidden" role="status">
        {copied ? `${what} copied to the clipboard` : ''}
      </span>
    </>
  );
}
