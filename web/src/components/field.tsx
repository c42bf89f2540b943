// A labelled input: every input of the dashboard has a visible label and its hint tied to it.
import { useId, type InputHTMLAttributes } from 'react';

export function Field({
  label,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
        {...addressInput(input.type)}
      />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * An address field is a text field with the email keyboard: a browser's own check of `type="email"`
 * refuses what the API takes (a display name, `Acme <noreply@acme.example>`; a non-ASCII local part),
 * and Chromium hands the page a Unicode domain in punycode, so an invitation to `ana@bücher.example`
 * was stored as `ana@xn--bcher-kva.example`. The server checks every address and says what is wrong.
 */
export function addressInput(type: string | undefined): InputHTMLAttributes<HTMLInputElement> {
  return type === 'email'
    ? { type: 'text', inputMode: 'email', autoCapitalize: 'none', spellCheck: false }
    : {};
}
