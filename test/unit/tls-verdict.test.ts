// The TLS decision (delivery/tls-verdict.ts): given what a connection's TLS came to and the requirement
// of the delivery, whether to send, fall back to cleartext or refuse, with what is recorded and reported.
import { describe, expect, it } from 'vitest';
import { OPPORTUNISTIC, type TlsRequirement } from '../../src/delivery/tls-policy.js';
import { handshakeWords, judgeTls, tlsRequirement, type TlsFacts } from '../../src/delivery/tls-verdict.js';

const target = { host: 'mx.example.com', address: '192.0.2.25' };
const REQUIRED: TlsRequirement = { policy: 'required', requireVerified: true };
const ENFORCE: TlsRequirement = {
  policy: 'mta-sts',
  requireVerified: true,
  sts: 'enforce',
  mxPatterns: ['*.example.com'],
  policyDomain: 'example.com',
};
const TESTING: TlsRequirement = {
  policy: 'mta-sts-testing',
  requireVerified: false,
  sts: 'testing',
  mxPatterns: ['mx.example.com'],
  policyDomain: 'example.com',
};

const tls = (over: Partial<Extract<TlsFacts, { kind: 'tls' }>> = {}): TlsFacts => ({
  kind: 'tls',
  version: 'TLSv1.3',
  cipher: 'TLS_AES_256_GCM_SHA384',
  chainError: null,
  nameError: null,
  ...over,
});
const EXPIRED = tls({ chainError: 'CERT_HAS_EXPIRED' });
const SELF_SIGNED = tls({ chainError: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
const WRONG_NAME = tls({
  nameError:
    "Hostname/IP does not match certificate's altnames: Host: mx.example.com. is not in the cert's altnames: DNS:other.example",
});
const HANDSHAKE: TlsFacts = { kind: 'handshake-failed', error: 'unsupported protocol' };

describe('judgeTls', () => {
  it('sends over a verified session and records its version, cipher and certificate', () => {
    const v = judgeTls(target, tls(), OPPORTUNISTIC);
    expect(v).toEqual({
      action: 'send',
      details: {
        policy: 'opportunistic',
        version: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        certificate: 'valid',
        certificateError: null,
        cleartextFallback: false,
      },
      session: { mxHost: 'mx.example.com', receivingIp: '192.0.2.25', ok: true },
    });
    expect(judgeTls(target, tls(), REQUIRED).action).toBe('send');
  });

  it('sends opportunistically over any certificate, recording why it did not verify', () => {
    for (const [facts, error] of [
      [EXPIRED, 'certificate has expired'],
      [SELF_SIGNED, 'self-signed certificate'],
      [WRONG_NAME, expect.stringContaining('is not in the cert')],
    ] as const) {
      const v = judgeTls(target, facts, OPPORTUNISTIC);
      expect(v.action).toBe('send');
      expect(v.details).toMatchObject({ certificate: 'invalid', certificateError: error });
      // Opportunistic asks nothing of the certificate: the session is a TLS session as reported.
      expect(v.session.ok).toBe(true);
    }
  });

  it('refuses an invalid certificate when TLS is required, with a reason naming the policy and the failure', () => {
    const cases = [
      [EXPIRED, 'certificate-expired', 'certificate has expired'],
      [SELF_SIGNED, 'certificate-not-trusted', 'self-signed certificate'],
      [tls({ chainError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), 'certificate-not-trusted', 'unable to verify'],
      [WRONG_NAME, 'certificate-host-mismatch', 'is not in the cert'],
      [tls({ chainError: 'SOMETHING_ELSE' }), 'validation-failure', 'something else'],
    ] as const;
    for (const [facts, failure, words] of cases) {
      const v = judgeTls(target, facts, REQUIRED);
      expect(v.action).toBe('refuse');
      expect(v.enhanced).toBe('4.7.5');
      expect(v.reason).toMatch(
        /^TLS is required by the sending domain's policy: the certificate of mx\.example\.com is not valid for it: /,
      );
      expect(v.reason).toContain(words);
      expect(v.details).toMatchObject({ policy: 'required', certificate: 'invalid' });
      expect(v.session).toMatchObject({ ok: false, failure });
    }
  });

  it('a chain error is named before a name mismatch', () => {
    const v = judgeTls(target, tls({ chainError: 'CERT_HAS_EXPIRED', nameError: 'wrong name' }), REQUIRED);
    expect(v.details.certificateError).toBe('certificate has expired');
    expect(v.session.failure).toBe('certificate-expired');
  });

  it('sends in cleartext without STARTTLS unless TLS is required', () => {
    const none = judgeTls(target, { kind: 'not-offered' }, OPPORTUNISTIC);
    expect(none.action).toBe('send');
    expect(none.details).toMatchObject({ version: null, certificate: null, cleartextFallback: false });
    expect(none.session).toMatchObject({ ok: false, failure: 'starttls-not-supported' });

    const refused = judgeTls(target, { kind: 'not-offered' }, REQUIRED);
    expect(refused).toMatchObject({
      action: 'refuse',
      enhanced: '4.7.4',
      reason:
        "TLS is required by the sending domain's policy: mx.example.com offered no STARTTLS; not delivered",
    });
    const said = judgeTls(target, { kind: 'refused', reply: '454 4.7.0 TLS not available' }, ENFORCE);
    expect(said.reason).toBe(
      'TLS is required by the MTA-STS policy of example.com (enforce): mx.example.com refused STARTTLS (454 4.7.0 TLS not available); not delivered',
    );
  });

  it('falls back to cleartext after a failed handshake, recorded as such; never when TLS is required', () => {
    const first = judgeTls(target, HANDSHAKE, OPPORTUNISTIC);
    expect(first.action).toBe('fallback');
    const retried = judgeTls(target, { ...HANDSHAKE, retriedInCleartext: true }, OPPORTUNISTIC);
    expect(retried.action).toBe('send');
    expect(retried.details).toEqual({
      policy: 'opportunistic',
      version: null,
      cipher: null,
      certificate: null,
      certificateError: null,
      cleartextFallback: true,
    });
    expect(retried.session).toMatchObject({ ok: false, failure: 'validation-failure' });

    const required = judgeTls(target, HANDSHAKE, REQUIRED);
    expect(required.action).toBe('refuse');
    expect(required.reason).toBe(
      "TLS is required by the sending domain's policy: the TLS handshake with mx.example.com failed (unsupported protocol); not delivered",
    );
    expect(required.details.cleartextFallback).toBe(false);
  });

  it('never sends over a cleartext retry when TLS is required or credentials would go, even if one was made', () => {
    // The transport never retries in cleartext then; the verdict does not rely on it.
    const retried: TlsFacts = { ...HANDSHAKE, retriedInCleartext: true };
    for (const requirement of [REQUIRED, ENFORCE]) {
      const v = judgeTls(target, retried, requirement);
      expect(v.action, requirement.policy).toBe('refuse');
      expect(v.details.cleartextFallback).toBe(false);
      expect(v.enhanced).toBe('4.7.5');
    }
    const relay = judgeTls(target, retried, OPPORTUNISTIC, true);
    expect(relay.action).toBe('refuse');
    expect(relay.reason).toMatch(/credentials are never sent in cleartext/);
  });

  it('never falls back to cleartext when the session would send credentials', () => {
    const v = judgeTls(target, HANDSHAKE, OPPORTUNISTIC, true);
    expect(v.action).toBe('refuse');
    expect(v.reason).toMatch(/credentials are never sent in cleartext/);
  });

  it('MTA-STS enforce refuses a host the policy does not list; testing sends and reports it', () => {
    const other = { host: 'mx.other.net', address: '198.51.100.1' };
    const enforced = judgeTls(other, tls(), ENFORCE);
    expect(enforced.action).toBe('refuse');
    expect(enforced.reason).toMatch(/mx\.other\.net is not listed in the MTA-STS policy of example\.com/);

    const testing = judgeTls(other, tls(), { ...TESTING });
    expect(testing.action).toBe('send');
    expect(testing.details.policy).toBe('mta-sts-testing');
    expect(testing.session).toMatchObject({ ok: false, failure: 'validation-failure' });
    // Listed, with a valid certificate: a successful session.
    expect(judgeTls(target, tls(), TESTING).session.ok).toBe(true);
    // A trailing dot on the host name changes nothing.
    expect(judgeTls({ ...target, host: 'mx.example.com.' }, tls(), ENFORCE).action).toBe('send');
  });

  it('MTA-STS testing reports an invalid certificate as enforce would, and still sends', () => {
    const v = judgeTls(target, EXPIRED, TESTING);
    expect(v.action).toBe('send');
    expect(v.session).toMatchObject({ ok: false, failure: 'certificate-expired' });
    expect(judgeTls(target, HANDSHAKE, TESTING).action).toBe('fallback');
  });
});

describe('tlsRequirement', () => {
  it('is opportunistic unless the domain or an MTA-STS policy asks for more', () => {
    expect(tlsRequirement('opportunistic', undefined)).toEqual(OPPORTUNISTIC);
    expect(tlsRequirement('required', undefined)).toEqual(REQUIRED);
  });

  it('names MTA-STS when it enforces, the domain when it requires, MTA-STS testing otherwise', () => {
    expect(tlsRequirement('opportunistic', ENFORCE)).toEqual(ENFORCE);
    expect(tlsRequirement('required', ENFORCE)).toEqual(ENFORCE);
    expect(tlsRequirement('opportunistic', TESTING)).toEqual(TESTING);
    // The domain requires; the testing policy's fields stay for reporting.
    expect(tlsRequirement('required', TESTING)).toEqual({
      ...TESTING,
      policy: 'required',
      requireVerified: true,
    });
    const unavailable = {
      ...OPPORTUNISTIC,
      policyDomain: 'example.com',
      policyFailure: { type: 'sts-policy-fetch-error' as const, detail: 'HTTP 404' },
    };
    expect(tlsRequirement('opportunistic', unavailable)).toEqual(unavailable);
    expect(tlsRequirement('required', unavailable)).toMatchObject({
      policy: 'required',
      requireVerified: true,
      policyFailure: unavailable.policyFailure,
    });
  });
});

describe('handshakeWords', () => {
  it("keeps OpenSSL's reason, not its whole error line", () => {
    const line =
      '80DCE6CF307F0000:error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 70\n';
    expect(handshakeWords({ message: line })).toBe('tlsv1 alert protocol version');
    expect(handshakeWords({ message: line, reason: 'tlsv1 alert protocol version' })).toBe(
      'tlsv1 alert protocol version',
    );
    expect(handshakeWords({ message: 'Connection closed unexpectedly' })).toBe(
      'Connection closed unexpectedly',
    );
  });
});
