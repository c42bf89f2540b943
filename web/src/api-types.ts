// Generated from /openapi.json by openapi-typescript (test/api-types.test.ts): do not edit.
// `npm run api-types` rewrites it after a change to the API's schemas (src/http/schemas/, the routes).
export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The process is alive */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Alive */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'ok';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The database answers */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Ready */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'ready';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dashboard: who is logged in (account: null when nobody), the CSRF token, sign-up */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Never 401 */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              account: components['schemas']['SessionAccount'] | null;
              member?: components['schemas']['SessionMember'];
              csrf_token: string | null;
              /** @enum {string} */
              signup: 'open' | 'closed';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/signup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: sign up; emails a verification link that logs in (answers the same whether the address has an account or not) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            email: string;
            password: string;
          };
        };
      };
      responses: {
        /** @description The same answer for every address */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'check_inbox';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `signup_closed`: Sign-up is closed on this server (TXMAIL_SIGNUP=closed); the operator creates accounts. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: log in (failures per 15 minutes: 10 per remembered browser and address; otherwise 10 per network and address, 100 per address, 30 per network); with two-factor sign-in on, `code` too */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            email: string;
            password: string;
            code?: string;
          };
        };
      };
      responses: {
        /** @description Logged in: the session and device cookies are set */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              account: components['schemas']['SessionAccount'];
              member: components['schemas']['SessionMember'];
              csrf_token: string;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_code`: The two-factor code (or recovery code) is wrong, expired or used already.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `invalid_credentials`: Dashboard log-in: the email or the password is wrong.
         *
         *     `totp_required`: Dashboard log-in: the password is right; send it again with the two-factor "code".
         */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: use the emailed verification link: confirms the signup address and logs in */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            token: string;
          };
        };
      };
      responses: {
        /** @description Logged in: the session and device cookies are set */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              account: components['schemas']['SessionAccount'];
              member: components['schemas']['SessionMember'];
              csrf_token: string;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_token`: The email verification, password reset or invitation link is unknown, used already or expired.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After. */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/password-reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: email a password reset link (answers the same whether the account exists or not) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            email: string;
          };
        };
      };
      responses: {
        /** @description The same answer whether the account exists or not */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'sent_if_account_exists';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/password-reset/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: set a new password with the token of the emailed link; logs out that password's sessions */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            token: string;
            password: string;
          };
        };
      };
      responses: {
        /** @description Done; that password's sessions are logged out */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              password_reset: true;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_token`: The email verification, password reset or invitation link is unknown, used already or expired.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After. */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/invitation': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: what an invitation link is for (the account, the role), before it is used */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            token: string;
          };
        };
      };
      responses: {
        /** @description The live invitation */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invitation'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_token`: The email verification, password reset or invitation link is unknown, used already or expired.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After. */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/accept-invite': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: use an invitation link: sets the member's password and logs in */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            token: string;
            password: string;
          };
        };
      };
      responses: {
        /** @description Joined and logged in: the session cookie is set (no device cookie) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              account: components['schemas']['SessionAccount'];
              member: components['schemas']['SessionMember'];
              csrf_token: string;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_token`: The email verification, password reset or invitation link is unknown, used already or expired.
         */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After. */
        429: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/email/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Queue one email for delivery */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description Makes a retry safe: a request with a key this account used in the last 24 hours gets the first answer, and nothing is queued again (`idempotency_key_reused` when the body differs) */
          'Idempotency-Key'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Sender: addr@domain or Name <addr@domain>, on a verified domain. */
            from: string;
            /** @description One recipient: addr@domain or Name <addr@domain>. */
            to: string;
            /** @description 1–998 characters after trimming, one line. */
            subject: string;
            /** @description HTML body, sent as given. */
            message: string;
          };
        };
      };
      responses: {
        /** @description Accepted: durably stored */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SendResult'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_idempotency_key`: The Idempotency-Key header is empty, too long, not printable, or sent more than once.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `account_suspended`: The account is suspended by the operator.
         *
         *     `account_paused`: Sending is paused: the bounce or complaint rate reached its pause threshold; the operator resumes the account.
         *
         *     `account_sandboxed`: The account has no verified domain yet; only test sends and the guided test work.
         *
         *     `domain_not_verified`: The from address is not on a verified domain of this account.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `idempotency_in_progress`: A request with the same Idempotency-Key is still being processed. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `idempotency_key_reused`: The Idempotency-Key was used in the last 24 hours with a different request.
         *
         *     `recipient_suppressed`: The recipient is on the suppression list of this account.
         */
        422: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `monthly_quota_exceeded`: The plan's emails per month are used up; see Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/email/send/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Record a send request in the logs without delivering it */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description Makes a retry safe: a request with a key this account used in the last 24 hours gets the first answer, and nothing is queued again (`idempotency_key_reused` when the body differs) */
          'Idempotency-Key'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Sender: addr@domain or Name <addr@domain>, on a verified domain. */
            from: string;
            /** @description One recipient: addr@domain or Name <addr@domain>. */
            to: string;
            /** @description 1–998 characters after trimming, one line. */
            subject: string;
            /** @description HTML body, sent as given. */
            message: string;
          };
        };
      };
      responses: {
        /** @description Accepted: durably stored */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SendResult'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_idempotency_key`: The Idempotency-Key header is empty, too long, not printable, or sent more than once.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `account_suspended`: The account is suspended by the operator.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `idempotency_in_progress`: A request with the same Idempotency-Key is still being processed. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `idempotency_key_reused`: The Idempotency-Key was used in the last 24 hours with a different request. */
        422: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `test_quota_exceeded`: The plan's test sends per day (UTC) are used up; see Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/emails/{id}/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Queue a copy of a message as a new message */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description Makes a retry safe: a request with a key this account used in the last 24 hours gets the first answer, and nothing is queued again (`idempotency_key_reused` when the body differs) */
          'Idempotency-Key'?: string;
        };
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The copy, queued */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ResendResult'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_idempotency_key`: The Idempotency-Key header is empty, too long, not printable, or sent more than once.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `account_suspended`: The account is suspended by the operator.
         *
         *     `account_paused`: Sending is paused: the bounce or complaint rate reached its pause threshold; the operator resumes the account.
         *
         *     `account_sandboxed`: The account has no verified domain yet; only test sends and the guided test work.
         *
         *     `domain_not_verified`: The from address is not on a verified domain of this account.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `idempotency_in_progress`: A request with the same Idempotency-Key is still being processed. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `idempotency_key_reused`: The Idempotency-Key was used in the last 24 hours with a different request.
         *
         *     `recipient_suppressed`: The recipient is on the suppression list of this account.
         */
        422: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `monthly_quota_exceeded`: The plan's emails per month are used up; see Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/emails/{id}/raw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The message as sent: its bytes as signed, message/rfc822 */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The bytes of its latest attempt as signed */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'message/rfc822': string;
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/emails': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The delivery log, newest first */
    get: {
      parameters: {
        query?: {
          status?: 'queued' | 'deferred' | 'delivered' | 'bounced' | 'failed' | 'complained' | 'test';
          /** @description The category of the message's latest failure, delay or complaint */
          category?:
            | 'unknown_recipient'
            | 'unknown_domain'
            | 'mailbox_full'
            | 'mailbox_disabled'
            | 'message_too_large'
            | 'content_rejected'
            | 'policy_rejected'
            | 'rate_limited'
            | 'expired'
            | 'network_error'
            | 'system_error'
            | 'auto_reply'
            | 'complaint'
            | 'unsubscribe'
            | 'undetermined';
          /** @description Recipient address, whole (A–Z in any case) */
          to?: string;
          /** @description Sender address, whole (A–Z in any case) */
          from?: string;
          /** @description ISO 8601 time, inclusive */
          since?: string;
          /** @description ISO 8601 time, exclusive */
          until?: string;
          /** @description next_cursor of the previous page */
          cursor?: string;
          /** @description 1–100, default 50 */
          limit?: string;
          /** @description A Message-ID (<id@host>), or words that must all appear in the subject (at most 8) */
          q?: string;
          /** @description The recipient's domain, exactly (an internationalised one as written or in punycode) */
          domain?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of the log; with Accept: text/csv, the filtered log as CSV (docs/API.md) */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description CSV export (Accept: text/csv) only: present when the export stopped at its row limit; pass as `cursor` for the rest */
            'x-next-cursor'?: string;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Email'][];
              /** @description Pass as `cursor` for the next page */
              next_cursor: string | null;
            };
            'text/csv': string;
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/emails/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One message with its event history, newest first */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The message */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EmailDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account: plan, state, usage this month and limits */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The account */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Account'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** The account's settings: how long a final message's content is kept */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Days a final message's content is kept, 1–3650; null keeps it */
            content_retention_days: number | null;
          };
        };
      };
      responses: {
        /** @description The account */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Account'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    trace?: never;
  };
  '/api/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's sending domains */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The domains, without records */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Domain'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    /** Add a sending domain; answers the DNS records to publish */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The domain to send from, e.g. acme.example (IDN allowed) */
            name: string;
            /** @description "opportunistic" (default: TLS when offered, any certificate, cleartext after a failed handshake) or "required" (only over TLS with a certificate valid for the host) */
            tls?: unknown;
            /** @description Also sign with an Ed25519 key (RFC 8463) beside the RSA key, once its record is found */
            dkim_ed25519?: boolean;
          };
        };
      };
      responses: {
        /** @description Added: the records to publish */
        201: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DomainDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `plan_limit`: The plan does not allow more of this resource.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `domain_exists`: The account already has a domain with this name. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/domains/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One domain: the records to publish and what the last check found */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The domain */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DomainDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Delete a domain and its DKIM key */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Deleted */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              id: string;
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Change the domain's settings: expire_after, tls, dkim_ed25519 */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Seconds after acceptance when txmail stops trying the domain's mail (60–172800), or null for 2 days */
            expire_after?: unknown;
            /** @description "opportunistic" (default: TLS when offered, any certificate, cleartext after a failed handshake) or "required" (only over TLS with a certificate valid for the host) */
            tls?: unknown;
            /** @description true: sign with an Ed25519 key beside the RSA key (once its record is found); false: stop */
            dkim_ed25519?: unknown;
          };
        };
      };
      responses: {
        /** @description The domain, changed */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DomainDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    trace?: never;
  };
  '/api/domains/{id}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Check the domain's DNS records now */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The domain as the check left it */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DomainDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/domains/{id}/dkim/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Start a DKIM key rotation: answers the new key (pending) and its record; the current key signs until the record is found */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The domain with its pending keys */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DomainDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/suppressions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The suppression list, newest first (or by the start of the address, alphabetically) */
    get: {
      parameters: {
        query?: {
          /** @description Exact address */
          address?: string;
          /** @description Addresses that start with this (any case), alphabetically instead of newest first */
          starts_with?: string;
          /** @description next_cursor of the previous page */
          cursor?: string;
          /** @description 1–100, default 50 */
          limit?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of the list */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Suppression'][];
              /** @description Pass as `cursor` for the next page */
              next_cursor: string | null;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    /** Suppress an address by hand */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            address: string;
            reason?: string;
          };
        };
      };
      responses: {
        /** @description The address was suppressed already: its entry */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Suppression'];
          };
        };
        /** @description Suppressed */
        201: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Suppression'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/suppressions/{address}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove an address from the suppression list */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          address: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's webhook endpoints */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The endpoints */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Webhook'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    /** Add a webhook endpoint (Pro: 3, Scale: 10) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description https:// URL that receives the events (POST, JSON). */
            url: string;
            /** @description Event types sent; default email.delivered, email.bounced, email.complained. */
            events?: (
              | 'email.delivered'
              | 'email.bounced'
              | 'email.complained'
              | 'email.delivery_delayed'
              | 'email.failed'
              | 'account.warning'
              | 'account.paused'
            )[];
            /** @description false: nothing is sent (events meanwhile are not kept for it). */
            enabled?: boolean;
            description?: string;
          };
        };
      };
      responses: {
        /** @description Added, with its signing secret */
        201: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['NewWebhook'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `plan_limit`: The plan does not allow more of this resource.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One webhook endpoint */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The endpoint */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookDetail'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Delete a webhook endpoint */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Change a webhook endpoint */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description https:// URL that receives the events (POST, JSON). */
            url?: string;
            /** @description Event types sent; default email.delivered, email.bounced, email.complained. */
            events?: (
              | 'email.delivered'
              | 'email.bounced'
              | 'email.complained'
              | 'email.delivery_delayed'
              | 'email.failed'
              | 'account.warning'
              | 'account.paused'
            )[];
            /** @description false: nothing is sent (events meanwhile are not kept for it). */
            enabled?: boolean;
            description?: string;
          };
        };
      };
      responses: {
        /** @description The endpoint, changed */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Webhook'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    trace?: never;
  };
  '/api/webhooks/{id}/secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Reveal the signing secret */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The secret */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookSecret'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** New signing secret; the old one keeps signing for 24 hours */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The new secret */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookSecret'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a signed webhook.test event now; the attempt is the answer */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The attempt */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookAttempt'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{id}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send an event of this account to this endpoint again */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Id of an event of this account. */
            event_id: string;
          };
        };
      };
      responses: {
        /** @description Queued */
        202: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookReplay'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `replay_limit_exceeded`: The webhook endpoint already has the most replays waiting to be sent (1,000 by default).
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/events/{id}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send an event again to every enabled endpoint subscribed to its type */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Queued */
        202: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EventReplay'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         *
         *     `replay_limit_exceeded`: The webhook endpoint already has the most replays waiting to be sent (1,000 by default).
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every attempt to push to this endpoint, newest first */
    get: {
      parameters: {
        query?: {
          /** @description next_cursor of the previous page */
          cursor?: string;
          /** @description 1–100, default 50 */
          limit?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of attempts */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['WebhookAttempt'][];
              /** @description Pass as `cursor` for the next page */
              next_cursor: string | null;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/account/notices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Notices for the account, newest first (the last 100) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The notices */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Notice'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: log out (ends this session) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Logged out; the session cookie is cleared */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: change your password; your other sessions are logged out */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            current_password: string;
            new_password: string;
          };
        };
      };
      responses: {
        /** @description Changed; your other sessions are logged out */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              password_changed: true;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         *
         *     `invalid_credentials`: Dashboard log-in: the email or the password is wrong.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/resend-verification': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: email a new verification link */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Sent */
        202: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {string} */
              status: 'sent';
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dashboard: the account's live API keys */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The keys */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['ApiKey'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    /** Dashboard: create an API key; the key is in this answer only */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Default "default" */
            name?: string;
          };
        };
      };
      responses: {
        /** @description Created: the key is in this answer only */
        201: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['NewApiKey'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Dashboard: revoke an API key (at once in this process) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/guided-test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: send one real message from the test domain to the signup address */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Queued */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description Follow it with GET /api/emails/:id */
              id: string;
              /** @enum {string} */
              status: 'queued';
              from: string;
              /** @description The signup address */
              to: string;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `email_not_verified`: The signup address is not verified yet; open the link emailed at sign-up.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/account/activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's mail per day: sent, delivered, bounced, complained */
    get: {
      parameters: {
        query?: {
          /** @description 1–90, default 30 */
          days?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The days */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description One entry per UTC day, oldest first; the last is today */
              days: components['schemas']['ActivityDay'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dashboard: the account's members and invitations */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The members, the owner first */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Member'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    /** Dashboard: invite a member by email (a link valid 7 days, mailed from onboarding@) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            email: string;
            /** @enum {string} */
            role: 'admin' | 'developer' | 'viewer';
          };
        };
      };
      responses: {
        /** @description Invited; the link is mailed */
        201: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Member'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `member_exists`: The address already has a txmail account or membership. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/members/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Dashboard: remove an invited member (its sessions end at once) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Dashboard: change an invited member's role */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @enum {string} */
            role: 'admin' | 'developer' | 'viewer';
          };
        };
      };
      responses: {
        /** @description The member with its new role */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Member'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    trace?: never;
  };
  '/api/members/{id}/invitation': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: mail an invitation again, with a new link valid 7 days (the old one stops working) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Mailed; the member with its new expiry */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Member'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `invitation_accepted`: The member has joined already: there is no invitation to mail again. */
        409: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/members/{id}/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dashboard: a member's live sessions (the owner's: the owner only) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The live sessions */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['MemberSession'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/members/{id}/sessions/{sid}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Dashboard: end one of a member's sessions (the owner's: the owner only) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
          sid: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/totp/setup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: start two-factor sign-in: a new TOTP secret and its otpauth:// URL */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The pending secret */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TotpSetup'];
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/totp/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: confirm with a code from the app; answers the recovery codes, shown once; your other sessions end */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            code: string;
          };
        };
      };
      responses: {
        /** @description Two-factor sign-in is on */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description Each works once instead of a code; shown in this answer only */
              recovery_codes: string[];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_code`: The two-factor code (or recovery code) is wrong, expired or used already.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/totp/disable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dashboard: turn two-factor sign-in off with a code (not while the account requires it) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            code: string;
          };
        };
      };
      responses: {
        /** @description Two-factor sign-in is off */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              totp_enabled: false;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         *
         *     `invalid_code`: The two-factor code (or recovery code) is wrong, expired or used already.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dashboard: your own live sessions */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Your live sessions */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['MemberSession'][];
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/sessions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Dashboard: end one of your own sessions */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Done; no body */
        204: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content?: never;
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `not_found`: No such route or resource (or it belongs to another account). */
        404: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/account/security': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Dashboard (owner): require two-factor sign-in of every member */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            require_totp: boolean;
          };
        };
      };
      responses: {
        /** @description The requirement as set */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              require_totp: boolean;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         *
         *     `invalid_json`: The body is not valid JSON.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `csrf_token_invalid`: A state-changing dashboard request lacks the x-csrf-token header of its session.
         *
         *     `session_required`: This route is for the dashboard (session cookie), not for API keys.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `payload_too_large`: The request body is over 10 MiB. */
        413: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `unsupported_media_type`: The body must be sent as Content-Type: application/json, in UTF-8 (no other charset). */
        415: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After.
         *
         *     `server_busy`: The server already holds as many large request bodies (declared over 64 KiB, or sent chunked) as it allows, from this client network or in all; nothing was done. Retry after Retry-After.
         */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    trace?: never;
  };
  '/api/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's audit log: every change, who made it, when and from where (newest first) */
    get: {
      parameters: {
        query?: {
          cursor?: string;
          limit?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of entries */
        200: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['AuditEntry'][];
              /** @description Pass as `cursor` for the next page */
              next_cursor: string | null;
            };
          };
        };
        /**
         * @description `bad_request`: The HTTP request itself is malformed (headers, URL, length).
         *
         *     `validation_error`: A field is missing, unknown, of the wrong type or malformed.
         */
        400: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `missing_api_key`: No x-api-key header (nor a dashboard session) was sent.
         *
         *     `invalid_api_key`: The API key is unknown or revoked.
         *
         *     `session_expired`: The dashboard session is unknown, expired or logged out; log in again.
         */
        401: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `browser_request_refused`: An API key was sent from a web page (Origin header); keys must stay on servers.
         *
         *     `totp_enrolment_required`: The account requires two-factor sign-in: set it up (POST /api/auth/totp/setup) first.
         *
         *     `forbidden`: The member's role does not allow this (owner, admin, developer, viewer: see the roles).
         */
        403: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `rate_limit_exceeded`: Too many requests (per API key, account, or dashboard log-in attempts); see Retry-After. */
        429: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description `internal_error`: A bug in txmail; the request may be retried. */
        500: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /**
         * @description `service_unavailable`: The database is unavailable for a moment (a send: the message could not be stored), or a large body could not be read this time; nothing was accepted, retry later.
         *
         *     `shutting_down`: This server is shutting down and did nothing with the request; retry it.
         */
        503: {
          headers: {
            /** @description Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off */
            'RateLimit-Limit'?: number;
            /** @description Requests left in the burst */
            'RateLimit-Remaining'?: number;
            /** @description Seconds until the bucket is full again */
            'RateLimit-Reset'?: number;
            /** @description Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment */
            'Retry-After'?: number;
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'email.delivered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The recipient's server accepted the message */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['EmailDeliveredEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.bounced': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The recipient's server refused it permanently, or a bounce came back */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['EmailBouncedEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.complained': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The recipient reported it as spam, or asked to unsubscribe */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['EmailComplainedEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.delivery_delayed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A temporary failure; the message is retried */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['EmailDeliveryDelayedEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** txmail gave up: the message expired, or it cannot be sent */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['EmailFailedEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'account.warning': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The account's bounce or complaint rate reached its warning threshold */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['AccountWarningEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'account.paused': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The account's bounce or complaint rate reached its pause threshold; sends are refused */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['AccountPausedEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** POST /api/webhooks/:id/test */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event's id: the same on every retry and replay; deduplicate on it */
          'webhook-id': string;
          /** @description Unix seconds when this attempt was signed */
          'webhook-timestamp': string;
          /** @description v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation */
          'webhook-signature': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['WebhookTestEvent'];
        };
      };
      responses: {
        /** @description Gone: the endpoint is disabled at once */
        410: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description Received; any other answer (or none within 15 s) is retried */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /**
     * @description Why something came back (docs/API.md, Bounce categories); stable, new ones may be added
     * @enum {string}
     */
    BounceCategory:
      | 'unknown_recipient'
      | 'unknown_domain'
      | 'mailbox_full'
      | 'mailbox_disabled'
      | 'message_too_large'
      | 'content_rejected'
      | 'policy_rejected'
      | 'rate_limited'
      | 'expired'
      | 'network_error'
      | 'system_error'
      | 'auto_reply'
      | 'complaint'
      | 'unsubscribe'
      | 'undetermined';
    /** @enum {string} */
    EmailStatus: 'queued' | 'deferred' | 'delivered' | 'bounced' | 'failed' | 'complained' | 'test';
    Email: {
      id: string;
      status: components['schemas']['EmailStatus'];
      /** @description The category of the message's latest failure, delay or complaint; null when none */
      category: components['schemas']['BounceCategory'] | null;
      from: string;
      to: string;
      subject: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description Delivery attempts so far */
      attempts: number;
      /** Format: date-time */
      next_attempt_at: string | null;
      /** @description Null unless queued or deferred */
      next: components['schemas']['NextStep'] | null;
    };
    EmailEvent: {
      id: string;
      /** @enum {string} */
      type:
        | 'email.queued'
        | 'email.delivered'
        | 'email.delivery_delayed'
        | 'email.bounced'
        | 'email.complained'
        | 'email.failed'
        | 'email.test'
        | 'email.report_received'
        | 'account.warning'
        | 'account.paused';
      /** Format: date-time */
      created_at: string;
      /** @description The event's details (SMTP reply, bounce, complaint…: docs/API.md, Events) */
      data: {
        [key: string]: unknown;
      };
    };
    TlsDetails: {
      /** @description e.g. TLSv1.3; null without TLS */
      version: string | null;
      cipher: string | null;
      /** @enum {string|null} */
      certificate: 'valid' | 'invalid' | null;
      certificate_error: string | null;
      /** @description opportunistic, required, mta-sts or mta-sts-testing */
      policy: string;
      cleartext_fallback: boolean;
    };
    DeliveryAttempt: {
      id: string;
      /** Format: date-time */
      started_at: string;
      duration_ms: number;
      /** @enum {string} */
      outcome: 'delivered' | 'deferred' | 'bounced' | 'failed';
      remote_host: string | null;
      remote_ip: string | null;
      tls: boolean;
      tls_details: components['schemas']['TlsDetails'] | null;
      smtp_code: number | null;
      enhanced_code: string | null;
      reply: string | null;
      /** @description null: the system chose */
      source_ip: string | null;
    };
    WebhookPush: {
      id: string;
      webhook_id: string;
      /** @description The endpoint's URL; its origin alone (`https://hooks.example.net/…`) for a caller whose role may not read webhooks */
      url: string;
      event_id: string;
      event_type: string;
      attempt: number;
      /** Format: date-time */
      started_at: string;
      duration_ms: number;
      success: boolean;
      status_code: number | null;
      error: string | null;
    };
    EmailDetail: {
      id: string;
      status: components['schemas']['EmailStatus'];
      /** @description The category of the message's latest failure, delay or complaint; null when none */
      category: components['schemas']['BounceCategory'] | null;
      from: string;
      to: string;
      subject: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description Delivery attempts so far */
      attempts: number;
      /** Format: date-time */
      next_attempt_at: string | null;
      /** @description Null unless queued or deferred */
      next: components['schemas']['NextStep'] | null;
      /** @description The HTML as stored */
      message: string;
      /** @description Size of the HTML as sent, in UTF-8 bytes */
      html_bytes: number;
      /** @description A test send's HTML was longer than the 64 KiB kept */
      html_truncated: boolean;
      /** @description Newest first */
      events: components['schemas']['EmailEvent'][];
      /** @description Newest first */
      delivery_attempts: components['schemas']['DeliveryAttempt'][];
      /** @description Oldest first */
      webhook_deliveries: components['schemas']['WebhookPush'][];
      /** @description Size of the raw bytes kept (GET /api/emails/:id/raw); null before an attempt or once removed */
      raw_bytes: number | null;
      /** @description The account's setting */
      content_retention_days: number | null;
      /** Format: date-time */
      content_removed_at: string | null;
      /** @description The message carries a sign-in link for its recipient alone (a reset, sign-up or invitation link): `message` is empty and the raw bytes are not served */
      content_sealed: boolean;
      /** Format: date-time */
      content_removes_at: string | null;
      /** @description The message this one is a re-sent copy of */
      resent_from: string | null;
      /** @description Re-sent copies, oldest first */
      resends: string[];
    };
    SendResult: {
      /** @description Message id; GET /api/emails/:id shows its history. */
      id: string;
      /** @enum {string} */
      status: 'queued' | 'test';
      /** @description Test route only: what a real send would have been refused for. */
      warnings?: string[];
    };
    /** @description Why a queued or deferred message waits and when it is tried next (messages/next-step.ts) */
    NextStep: {
      /** Format: date-time */
      at: string;
      /** @enum {string} */
      reason: 'delivering' | 'due' | 'destination_paused' | 'throttled' | 'retry' | 'account_paused';
      why: string;
      /** @description The attempt that comes next (1: the first) */
      attempt: number;
      /** Format: date-time */
      expires_at: string;
    };
    ResendResult: {
      id: string;
      /** @enum {string} */
      status: 'queued';
      resent_from: string;
    };
    /** @description Bounce and complaint rates (fractions) over the rolling window, the state they earned and the thresholds */
    Reputation: {
      /** @enum {string} */
      status: 'healthy' | 'warning' | 'paused';
      /** @description Why it is not healthy; null when healthy */
      reason: string | null;
      bounce_rate: number;
      complaint_rate: number;
      /** @description Messages that reached a final state in the window */
      messages: number;
      window_days: number;
      /**
       * Format: date-time
       * @description When the status last changed; null: never
       */
      changed_at: string | null;
      thresholds: {
        bounce_warning: number;
        bounce_pause: number;
        complaint_warning: number;
        complaint_pause: number;
        min_messages: number;
      };
      domains: {
        domain: string;
        bounce_rate: number;
        complaint_rate: number;
        messages: number;
      }[];
    };
    Account: {
      id: string;
      email: string;
      /** @enum {string} */
      plan: 'free' | 'pro' | 'scale';
      /** @enum {string} */
      state: 'sandbox' | 'production';
      suspended: boolean;
      /** @description The simulator's domain: mail to delivered@, bounce@, complaint@, delayed@ or suppressed@ it is answered as that outcome, in the sandbox too (docs/API.md) */
      simulator_domain: string;
      /** Format: date-time */
      created_at: string;
      /** @description Emails counted toward the monthly cap this calendar month (UTC) */
      usage: {
        /** @description YYYY-MM */
        month: string;
        sent: number;
        limit: number;
        remaining: number;
        /** Format: date-time */
        resets_at: string;
      };
      /** @description Test sends (POST /api/email/send/test) counted toward the daily allowance this UTC day */
      test_sends: {
        /** @description YYYY-MM-DD */
        day: string;
        sent: number;
        limit: number;
        remaining: number;
        /** Format: date-time */
        resets_at: string;
      };
      limits: {
        emails_per_month: number;
        test_sends_per_day: number;
        domains: number;
        webhooks: number;
        /** @description null: kept permanently */
        log_retention_hours: number | null;
      };
      /** @description Domains and webhooks the account has */
      counts: {
        [key: string]: number;
      };
      reputation: components['schemas']['Reputation'];
      /** @description Days a message's content (HTML and raw bytes) is kept once it is final; null: kept for the log's retention */
      content_retention_days: number | null;
    };
    ActivityDay: {
      /** @description YYYY-MM-DD (UTC) */
      date: string;
      /** @description Messages that left the queue for the first time */
      sent: number;
      delivered: number;
      /** @description Permanent bounces, any category */
      bounced: number;
      /** @description Spam complaints (unsubscribes are not counted) */
      complained: number;
      /** @description Messages that reached a final state, as the rates count them (the test domain's left out; zeroed when the account is resumed) */
      final: number;
      /** @description Bounces that say the address is bad, as the bounce rate counts them (same exclusions) */
      bad_bounces: number;
      /** @description Spam complaints, as the complaint rate counts them (same exclusions) */
      spam_complaints: number;
    };
    Notice: {
      id: string;
      /** @description webhook_disabled, quota_80, quota_100, signup_attempt, member_signup_attempt, … */
      kind: string;
      message: string;
      /** @description What the notice is about (e.g. the webhook) */
      data: {
        [key: string]: unknown;
      };
      /** Format: date-time */
      created_at: string;
    };
    Domain: {
      id: string;
      /** @description In ASCII (punycode) */
      name: string;
      unicode_name: string;
      /** @enum {string} */
      status: 'pending' | 'verified' | 'temporary_failure' | 'failed';
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      verified_at: string | null;
      /** Format: date-time */
      last_checked_at: string | null;
      /** Format: date-time */
      next_check_at: string | null;
      /**
       * Format: date-time
       * @description When a pending or failing domain fails unless its records are found
       */
      fails_at: string | null;
      /** @description Seconds after acceptance when txmail stops trying the domain's mail; null: 2 days */
      expire_after: number | null;
      /** @enum {string} */
      tls: 'opportunistic' | 'required';
    };
    DomainRecord: {
      /** @enum {string} */
      record: 'dkim' | 'return_path_mx' | 'spf' | 'dmarc';
      /** @enum {string} */
      type: 'TXT' | 'MX';
      name: string;
      value: string;
      /** @description MX preference */
      priority?: number;
      /** @description false: reported, but verification does not wait for it */
      required: boolean;
      purpose: string;
      /** @enum {string} */
      status: 'found' | 'missing' | 'wrong' | 'error' | 'not_checked';
      /** @description What DNS answered at that name */
      seen: string[];
      problems: string[];
      warnings: string[];
    };
    DkimKey: {
      selector: string;
      /** @enum {string} */
      algorithm: 'rsa-sha256' | 'ed25519-sha256';
      /** @enum {string} */
      status: 'active' | 'pending' | 'retired';
      /** @enum {string} */
      type: 'TXT';
      name: string;
      value: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      activated_at: string | null;
      /** Format: date-time */
      retired_at: string | null;
      /**
       * Format: date-time
       * @description When a retired key's record may be removed
       */
      removable_after: string | null;
      /** @enum {string|null} */
      record_status: 'found' | 'missing' | 'wrong' | 'error' | null;
      /** Format: date-time */
      record_checked_at: string | null;
      record_problem: string | null;
    };
    DomainWarning: {
      /** @enum {string} */
      code: 'no_mail_host' | 'null_mx' | 'dmarc_missing';
      /** @enum {string} */
      severity: 'warning';
      message: string;
      /** @description The record that fixes it */
      suggested?: {
        type: string;
        name: string;
        value: string;
      };
    };
    DomainCheck: {
      /** Format: date-time */
      checked_at: string;
      /** @enum {string} */
      outcome: 'pass' | 'fail' | 'inconclusive';
      spf_lookups: number | null;
      dmarc: {
        /** @enum {string|null} */
        policy: 'none' | 'quarantine' | 'reject' | null;
        guidance: string;
      };
      warnings: components['schemas']['DomainWarning'][];
    };
    DomainDetail: {
      id: string;
      /** @description In ASCII (punycode) */
      name: string;
      unicode_name: string;
      /** @enum {string} */
      status: 'pending' | 'verified' | 'temporary_failure' | 'failed';
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      verified_at: string | null;
      /** Format: date-time */
      last_checked_at: string | null;
      /** Format: date-time */
      next_check_at: string | null;
      /**
       * Format: date-time
       * @description When a pending or failing domain fails unless its records are found
       */
      fails_at: string | null;
      /** @description Seconds after acceptance when txmail stops trying the domain's mail; null: 2 days */
      expire_after: number | null;
      /** @enum {string} */
      tls: 'opportunistic' | 'required';
      /** @description An Ed25519 key is active or pending */
      dkim_ed25519: boolean;
      records: components['schemas']['DomainRecord'][];
      /** @description Active and pending, then the latest retired */
      dkim_keys: components['schemas']['DkimKey'][];
      last_check: components['schemas']['DomainCheck'] | null;
    };
    Suppression: {
      id: string;
      /** @description Lower case, the domain in ASCII */
      address: string;
      /** @enum {string} */
      origin: 'bounce' | 'complaint' | 'manual';
      reason: string;
      enhanced_code: string | null;
      /** @description The message that caused it */
      source_email_id: string | null;
      /** Format: date-time */
      created_at: string;
    };
    /**
     * @description An event an endpoint can subscribe to
     * @enum {string}
     */
    WebhookEventType:
      | 'email.delivered'
      | 'email.bounced'
      | 'email.complained'
      | 'email.delivery_delayed'
      | 'email.failed'
      | 'account.warning'
      | 'account.paused';
    Webhook: {
      id: string;
      url: string;
      description: string;
      events: components['schemas']['WebhookEventType'][];
      enabled: boolean;
      /** @description Who or what disabled it; null when enabled */
      disabled_reason: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    WebhookDetail: {
      id: string;
      url: string;
      description: string;
      events: components['schemas']['WebhookEventType'][];
      enabled: boolean;
      /** @description Who or what disabled it; null when enabled */
      disabled_reason: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /**
       * Format: date-time
       * @description Until when the previous secret signs too (24 hours after a rotation); null: none
       */
      previous_secret_expires_at: string | null;
    };
    NewWebhook: {
      id: string;
      url: string;
      description: string;
      events: components['schemas']['WebhookEventType'][];
      enabled: boolean;
      /** @description Who or what disabled it; null when enabled */
      disabled_reason: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description whsec_… */
      secret: string;
    };
    WebhookSecret: {
      /** @description whsec_… */
      secret: string;
      /**
       * Format: date-time
       * @description Until when the previous secret signs too (24 hours after a rotation); null: none
       */
      previous_secret_expires_at: string | null;
    };
    WebhookAttempt: {
      id: string;
      event_id: string;
      /** @description The event type, or webhook.test */
      event_type: string;
      /** @description 1 for the first attempt of that event */
      attempt: number;
      success: boolean;
      /** @description null without a response */
      status_code: number | null;
      duration_ms: number;
      /** @description The first KiB of the body */
      response: string | null;
      /** @description What went wrong without a response */
      error: string | null;
      /** Format: date-time */
      created_at: string;
    };
    WebhookReplay: {
      webhook_id: string;
      event_id: string;
      /** @enum {string} */
      status: 'queued';
    };
    EventReplay: {
      event_id: string;
      /** @description The endpoints it is queued for */
      webhook_ids: string[];
      /** @enum {string} */
      status: 'queued';
    };
    /** @description The recipient's server accepted the message */
    EmailDeliveredEvent: {
      /** @enum {string} */
      type: 'email.delivered';
      /** Format: date-time */
      created_at: string;
      data: {
        email_id: string;
        from: string;
        to: string;
        subject: string;
        /** Format: date-time */
        email_created_at: string;
        attempt?: number;
        smtp_code?: number | null;
        enhanced_code?: string | null;
        reply?: string | null;
        remote_host?: string | null;
        remote_ip?: string | null;
        tls?: boolean;
        tls_details?: components['schemas']['TlsDetails'] | null;
        reason?: string;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description The recipient's server refused it permanently, or a bounce came back */
    EmailBouncedEvent: {
      /** @enum {string} */
      type: 'email.bounced';
      /** Format: date-time */
      created_at: string;
      data: {
        email_id: string;
        from: string;
        to: string;
        subject: string;
        /** Format: date-time */
        email_created_at: string;
        attempt?: number;
        smtp_code?: number | null;
        enhanced_code?: string | null;
        reply?: string | null;
        remote_host?: string | null;
        remote_ip?: string | null;
        tls?: boolean;
        tls_details?: components['schemas']['TlsDetails'] | null;
        reason?: string;
        /** @description Why; null when the event has none */
        category: components['schemas']['BounceCategory'] | null;
        /** @enum {string} */
        bounce_type?: 'permanent' | 'undetermined';
      } & {
        [key: string]: unknown;
      };
    };
    /** @description The recipient reported it as spam, or asked to unsubscribe */
    EmailComplainedEvent: {
      /** @enum {string} */
      type: 'email.complained';
      /** Format: date-time */
      created_at: string;
      data: {
        email_id: string;
        from: string;
        to: string;
        subject: string;
        /** Format: date-time */
        email_created_at: string;
        attempt?: number;
        smtp_code?: number | null;
        enhanced_code?: string | null;
        reply?: string | null;
        remote_host?: string | null;
        remote_ip?: string | null;
        tls?: boolean;
        tls_details?: components['schemas']['TlsDetails'] | null;
        reason?: string;
        /** @description Why; null when the event has none */
        category: components['schemas']['BounceCategory'] | null;
        feedback_type?: string;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description A temporary failure; the message is retried */
    EmailDeliveryDelayedEvent: {
      /** @enum {string} */
      type: 'email.delivery_delayed';
      /** Format: date-time */
      created_at: string;
      data: {
        email_id: string;
        from: string;
        to: string;
        subject: string;
        /** Format: date-time */
        email_created_at: string;
        attempt?: number;
        smtp_code?: number | null;
        enhanced_code?: string | null;
        reply?: string | null;
        remote_host?: string | null;
        remote_ip?: string | null;
        tls?: boolean;
        tls_details?: components['schemas']['TlsDetails'] | null;
        reason?: string;
        /** @description Why; null when the event has none */
        category: components['schemas']['BounceCategory'] | null;
        /** @enum {string} */
        bounce_type?: 'transient';
        /** Format: date-time */
        next_attempt_at?: string;
        greylisted?: boolean;
        sender_block?: boolean;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description txmail gave up: the message expired, or it cannot be sent */
    EmailFailedEvent: {
      /** @enum {string} */
      type: 'email.failed';
      /** Format: date-time */
      created_at: string;
      data: {
        email_id: string;
        from: string;
        to: string;
        subject: string;
        /** Format: date-time */
        email_created_at: string;
        attempt?: number;
        smtp_code?: number | null;
        enhanced_code?: string | null;
        reply?: string | null;
        remote_host?: string | null;
        remote_ip?: string | null;
        tls?: boolean;
        tls_details?: components['schemas']['TlsDetails'] | null;
        reason?: string;
        /** @description Why; null when the event has none */
        category: components['schemas']['BounceCategory'] | null;
        last_category?: components['schemas']['BounceCategory'] | null;
        /** Format: date-time */
        expired_at?: string;
        detail?: string;
        attempts?: number;
        sender_domain?: string;
        domain_status?: string | null;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description The account's bounce or complaint rate reached its warning threshold */
    AccountWarningEvent: {
      /** @enum {string} */
      type: 'account.warning';
      /** Format: date-time */
      created_at: string;
      data: {
        account_id: string;
        /** @enum {string} */
        status: 'warning' | 'paused';
        reason: string;
        bounce_rate: number;
        complaint_rate: number;
        messages: number;
        window_days: number;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description The account's bounce or complaint rate reached its pause threshold; sends are refused */
    AccountPausedEvent: {
      /** @enum {string} */
      type: 'account.paused';
      /** Format: date-time */
      created_at: string;
      data: {
        account_id: string;
        /** @enum {string} */
        status: 'warning' | 'paused';
        reason: string;
        bounce_rate: number;
        complaint_rate: number;
        messages: number;
        window_days: number;
      } & {
        [key: string]: unknown;
      };
    };
    /** @description POST /api/webhooks/:id/test */
    WebhookTestEvent: {
      /** @enum {string} */
      type: 'webhook.test';
      /** Format: date-time */
      created_at: string;
      data: {
        webhook_id: string;
        message: string;
      };
    };
    SessionAccount: {
      id: string;
      email: string;
      email_verified: boolean;
      /** @enum {string} */
      plan: 'free' | 'pro' | 'scale';
      /** @enum {string} */
      state: 'sandbox' | 'production';
      /** @description The owner requires two-factor sign-in of every member */
      require_totp: boolean;
    };
    ApiKey: {
      id: string;
      name: string;
      /** @description The first characters of the key, to tell keys apart */
      prefix: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      last_used_at: string | null;
      /** @description The address of the invited member who made the key; null: the account's owner or the operator */
      made_by: string | null;
      /**
       * @description The role that bounds the key, its maker's (it follows the member's changes); null: full rights
       * @enum {string|null}
       */
      role: 'admin' | 'developer' | 'viewer' | null;
      /** @description Whether the caller may revoke it: an owner or admin any key, a developer the keys it made */
      may_revoke: boolean;
    };
    NewApiKey: {
      id: string;
      name: string;
      /** @description The first characters of the key, to tell keys apart */
      prefix: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      last_used_at: string | null;
      /** @description The address of the invited member who made the key; null: the account's owner or the operator */
      made_by: string | null;
      /**
       * @description The role that bounds the key, its maker's (it follows the member's changes); null: full rights
       * @enum {string|null}
       */
      role: 'admin' | 'developer' | 'viewer' | null;
      /** @description txm_…: shown in this answer only */
      key: string;
    };
    /** @description Who is signed in: the member, its role and its two-factor sign-in */
    SessionMember: {
      id: string;
      email: string;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'developer' | 'viewer';
      totp_enabled: boolean;
      /** @description The account requires two-factor sign-in and this member has not set it up: nothing else works */
      must_enrol_totp: boolean;
    };
    Member: {
      /** @description The owner's is `own_<account id>` */
      id: string;
      email: string;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'developer' | 'viewer';
      /** @enum {string} */
      status: 'invited' | 'active';
      /**
       * Format: date-time
       * @description While invited: when the invitation's link stops working (it may be past; mailing it again makes a new one); null once joined
       */
      invite_expires_at: string | null;
      totp_enabled: boolean;
      /** Format: date-time */
      created_at: string;
    };
    /** @description What a live invitation link is for */
    Invitation: {
      /** @description The invited address */
      email: string;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'developer' | 'viewer';
      /** @description The account's address (its owner's), which the link joins */
      account_email: string;
      /** Format: date-time */
      expires_at: string;
    };
    MemberSession: {
      /** @description The first 32 hex digits of the session id's hash */
      id: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      last_seen_at: string;
      /** Format: date-time */
      expires_at: string;
      /** @description The session of this request */
      current: boolean;
      /** @description The address the session was started from; null for a session from before it was kept */
      ip: string | null;
      /** @description The browser's User-Agent when the session was started (at most 256 characters); null if none */
      user_agent: string | null;
    };
    TotpSetup: {
      /** @description The base32 key, for apps that cannot read the URL */
      secret: string;
      /** @description otpauth://totp/…: the QR code of authenticator apps */
      otpauth_url: string;
    };
    AuditEntry: {
      id: string;
      /** Format: date-time */
      created_at: string;
      actor: {
        /**
         * @description `system`: txmail itself, at nobody's request (`id` names the part: `reputation_guard`)
         * @enum {string}
         */
        type: 'member' | 'api_key' | 'operator' | 'system';
        /** @description The member's or API key's id, or the system part's name */
        id: string | null;
        /** @description The member's address at the time, or the API key's name and first characters (`ci (txm_ab12cd…)`); null in entries made before keys were named */
        label: string | null;
      };
      /** @description e.g. `member.invited`, `api_key.created`, `email.resent` */
      action: string;
      target: string | null;
      /** @description What the target was called when the change was made: an API key's name and first characters, a domain's name, a webhook endpoint's description and the origin of its URL (a path or query may hold the receiver's token), a member's address and the role it has after the change (`ann@example.org as viewer`); null when the target names itself (an address, an email's id) or the entry is older */
      target_label: string | null;
      ip: string | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type BounceCategory = components['schemas']['BounceCategory'];
export type EmailStatus = components['schemas']['EmailStatus'];
export type Email = components['schemas']['Email'];
export type EmailEvent = components['schemas']['EmailEvent'];
export type TlsDetails = components['schemas']['TlsDetails'];
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
export type WebhookPush = components['schemas']['WebhookPush'];
export type EmailDetail = components['schemas']['EmailDetail'];
export type SendResult = components['schemas']['SendResult'];
export type NextStep = components['schemas']['NextStep'];
export type ResendResult = components['schemas']['ResendResult'];
export type Reputation = components['schemas']['Reputation'];
export type Account = components['schemas']['Account'];
export type ActivityDay = components['schemas']['ActivityDay'];
export type Notice = components['schemas']['Notice'];
export type Domain = components['schemas']['Domain'];
export type DomainRecord = components['schemas']['DomainRecord'];
export type DkimKey = components['schemas']['DkimKey'];
export type DomainWarning = components['schemas']['DomainWarning'];
export type DomainCheck = components['schemas']['DomainCheck'];
export type DomainDetail = components['schemas']['DomainDetail'];
export type Suppression = components['schemas']['Suppression'];
export type WebhookEventType = components['schemas']['WebhookEventType'];
export type Webhook = components['schemas']['Webhook'];
export type WebhookDetail = components['schemas']['WebhookDetail'];
export type NewWebhook = components['schemas']['NewWebhook'];
export type WebhookSecret = components['schemas']['WebhookSecret'];
export type WebhookAttempt = components['schemas']['WebhookAttempt'];
export type WebhookReplay = components['schemas']['WebhookReplay'];
export type EventReplay = components['schemas']['EventReplay'];
export type EmailDeliveredEvent = components['schemas']['EmailDeliveredEvent'];
export type EmailBouncedEvent = components['schemas']['EmailBouncedEvent'];
export type EmailComplainedEvent = components['schemas']['EmailComplainedEvent'];
export type EmailDeliveryDelayedEvent = components['schemas']['EmailDeliveryDelayedEvent'];
export type EmailFailedEvent = components['schemas']['EmailFailedEvent'];
export type AccountWarningEvent = components['schemas']['AccountWarningEvent'];
export type AccountPausedEvent = components['schemas']['AccountPausedEvent'];
export type WebhookTestEvent = components['schemas']['WebhookTestEvent'];
export type SessionAccount = components['schemas']['SessionAccount'];
export type ApiKey = components['schemas']['ApiKey'];
export type NewApiKey = components['schemas']['NewApiKey'];
export type SessionMember = components['schemas']['SessionMember'];
export type Member = components['schemas']['Member'];
export type Invitation = components['schemas']['Invitation'];
export type MemberSession = components['schemas']['MemberSession'];
export type TotpSetup = components['schemas']['TotpSetup'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type $defs = Record<string, never>;
type FlattenedDeepRequired<T> = {
  [K in keyof T]-?: FlattenedDeepRequired<
    T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]
  >;
};
type ReadonlyArray<T> = [Exclude<T, undefined>] extends [unknown[]]
  ? Readonly<Exclude<T, undefined>>
  : Readonly<Exclude<T, undefined>[]>;
export const pathsHealthzGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/healthz']['get']['responses']['200']['content']['application/json']['status']
> = ['ok'];
export const pathsReadyzGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/readyz']['get']['responses']['200']['content']['application/json']['status']
> = ['ready'];
export const pathsApiAuthSessionGetResponses200ContentApplicationJsonSignupValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/auth/session']['get']['responses']['200']['content']['application/json']['signup']
> = ['open', 'closed'];
export const pathsApiAuthSignupPostResponses202ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/auth/signup']['post']['responses']['202']['content']['application/json']['status']
> = ['check_inbox'];
export const pathsApiAuthPasswordResetPostResponses202ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/auth/password-reset']['post']['responses']['202']['content']['application/json']['status']
> = ['sent_if_account_exists'];
export const pathsApiEmailsGetParametersQueryStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/emails']['get']['parameters']['query']['status']
> = ['queued', 'deferred', 'delivered', 'bounced', 'failed', 'complained', 'test'];
export const pathsApiEmailsGetParametersQueryCategoryValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/emails']['get']['parameters']['query']['category']
> = [
  'unknown_recipient',
  'unknown_domain',
  'mailbox_full',
  'mailbox_disabled',
  'message_too_large',
  'content_rejected',
  'policy_rejected',
  'rate_limited',
  'expired',
  'network_error',
  'system_error',
  'auto_reply',
  'complaint',
  'unsubscribe',
  'undetermined',
];
export const pathsApiWebhooksPostRequestBodyContentApplicationJsonEventsValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/webhooks']['post']['requestBody']['content']['application/json']['events']
> = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.failed',
  'account.warning',
  'account.paused',
];
export const pathsApiWebhooksIdPatchRequestBodyContentApplicationJsonEventsValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/webhooks/{id}']['patch']['requestBody']['content']['application/json']['events']
> = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.failed',
  'account.warning',
  'account.paused',
];
export const pathsApiAuthResendVerificationPostResponses202ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/auth/resend-verification']['post']['responses']['202']['content']['application/json']['status']
> = ['sent'];
export const pathsApiGuidedTestPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/guided-test']['post']['responses']['200']['content']['application/json']['status']
> = ['queued'];
export const pathsApiMembersPostRequestBodyContentApplicationJsonRoleValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/members']['post']['requestBody']['content']['application/json']['role']
> = ['admin', 'developer', 'viewer'];
export const pathsApiMembersIdPatchRequestBodyContentApplicationJsonRoleValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/api/members/{id}']['patch']['requestBody']['content']['application/json']['role']
> = ['admin', 'developer', 'viewer'];
export const bounceCategoryValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['BounceCategory']
> = [
  'unknown_recipient',
  'unknown_domain',
  'mailbox_full',
  'mailbox_disabled',
  'message_too_large',
  'content_rejected',
  'policy_rejected',
  'rate_limited',
  'expired',
  'network_error',
  'system_error',
  'auto_reply',
  'complaint',
  'unsubscribe',
  'undetermined',
];
export const emailStatusValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['EmailStatus']> = [
  'queued',
  'deferred',
  'delivered',
  'bounced',
  'failed',
  'complained',
  'test',
];
export const emailEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailEvent']['type']
> = [
  'email.queued',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.test',
  'email.report_received',
  'account.warning',
  'account.paused',
];
export const deliveryAttemptOutcomeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DeliveryAttempt']['outcome']
> = ['delivered', 'deferred', 'bounced', 'failed'];
export const sendResultStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['SendResult']['status']
> = ['queued', 'test'];
export const nextStepReasonValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['NextStep']['reason']
> = ['delivering', 'due', 'destination_paused', 'throttled', 'retry', 'account_paused'];
export const resendResultStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['ResendResult']['status']
> = ['queued'];
export const reputationStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Reputation']['status']
> = ['healthy', 'warning', 'paused'];
export const accountPlanValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Account']['plan']
> = ['free', 'pro', 'scale'];
export const accountStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Account']['state']
> = ['sandbox', 'production'];
export const domainStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Domain']['status']
> = ['pending', 'verified', 'temporary_failure', 'failed'];
export const domainTlsValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Domain']['tls']> = [
  'opportunistic',
  'required',
];
export const domainRecordRecordValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainRecord']['record']
> = ['dkim', 'return_path_mx', 'spf', 'dmarc'];
export const domainRecordTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainRecord']['type']
> = ['TXT', 'MX'];
export const domainRecordStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainRecord']['status']
> = ['found', 'missing', 'wrong', 'error', 'not_checked'];
export const dkimKeyAlgorithmValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DkimKey']['algorithm']
> = ['rsa-sha256', 'ed25519-sha256'];
export const dkimKeyStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DkimKey']['status']
> = ['active', 'pending', 'retired'];
export const dkimKeyTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DkimKey']['type']
> = ['TXT'];
export const domainWarningCodeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainWarning']['code']
> = ['no_mail_host', 'null_mx', 'dmarc_missing'];
export const domainWarningSeverityValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainWarning']['severity']
> = ['warning'];
export const domainCheckOutcomeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainCheck']['outcome']
> = ['pass', 'fail', 'inconclusive'];
export const domainDetailStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainDetail']['status']
> = ['pending', 'verified', 'temporary_failure', 'failed'];
export const domainDetailTlsValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DomainDetail']['tls']
> = ['opportunistic', 'required'];
export const suppressionOriginValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Suppression']['origin']
> = ['bounce', 'complaint', 'manual'];
export const webhookEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['WebhookEventType']
> = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.failed',
  'account.warning',
  'account.paused',
];
export const webhookReplayStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['WebhookReplay']['status']
> = ['queued'];
export const eventReplayStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EventReplay']['status']
> = ['queued'];
export const emailDeliveredEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailDeliveredEvent']['type']
> = ['email.delivered'];
export const emailBouncedEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailBouncedEvent']['type']
> = ['email.bounced'];
export const emailBouncedEventDataBounce_typeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailBouncedEvent']['data']['bounce_type']
> = ['permanent', 'undetermined'];
export const emailComplainedEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailComplainedEvent']['type']
> = ['email.complained'];
export const emailDeliveryDelayedEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailDeliveryDelayedEvent']['type']
> = ['email.delivery_delayed'];
export const emailDeliveryDelayedEventDataBounce_typeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailDeliveryDelayedEvent']['data']['bounce_type']
> = ['transient'];
export const emailFailedEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['EmailFailedEvent']['type']
> = ['email.failed'];
export const accountWarningEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AccountWarningEvent']['type']
> = ['account.warning'];
export const accountWarningEventDataStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AccountWarningEvent']['data']['status']
> = ['warning', 'paused'];
export const accountPausedEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AccountPausedEvent']['type']
> = ['account.paused'];
export const accountPausedEventDataStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AccountPausedEvent']['data']['status']
> = ['warning', 'paused'];
export const webhookTestEventTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['WebhookTestEvent']['type']
> = ['webhook.test'];
export const sessionAccountPlanValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['SessionAccount']['plan']
> = ['free', 'pro', 'scale'];
export const sessionAccountStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['SessionAccount']['state']
> = ['sandbox', 'production'];
export const sessionMemberRoleValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['SessionMember']['role']
> = ['owner', 'admin', 'developer', 'viewer'];
export const memberRoleValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Member']['role']> =
  ['owner', 'admin', 'developer', 'viewer'];
export const memberStatusValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Member']['status']
> = ['invited', 'active'];
export const invitationRoleValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Invitation']['role']
> = ['owner', 'admin', 'developer', 'viewer'];
export const auditEntryActorTypeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AuditEntry']['actor']['type']
> = ['member', 'api_key', 'operator', 'system'];
export type operations = Record<string, never>;
