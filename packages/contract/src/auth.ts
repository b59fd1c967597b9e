/** Auth payloads (spec sections 3 and 7, /auth/*). */
import * as z from 'zod';
import { hasNoNul } from './fields.js';
import { LOCALES, OTP_LENGTH, PASSKEYS_MAX, STEP_UP_ACTIONS, type Locale, type StepUpAction } from './constants.js';
import { NAME_MAX_LENGTH, NICKNAME_MAX_LENGTH, NICKNAME_PATTERN, PHONE_MAX_LENGTH, PHONE_PATTERN } from './profile.js';

/** E-mail as typed by a person: trimmed, lower-cased, at most 254 characters (RFC 5321). */
export const email = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** POST /auth/signInOrRegisterAndSignIn body. */
export const signInRequest = z.strictObject({ email, locale: z.enum(LOCALES).optional() });
/**
 * Response: the sign-in session id that the OTP verify call must present (spec section 3), and beyond the spec `resendAfterSeconds`: how long until another
 * code may be asked for (OTP_RESEND_SECONDS), so the OTP screen can count down to "Resend code" (issue 13).
 */
export const signInResponse = z.object({ sessionId: z.string(), resendAfterSeconds: z.number().int().nonnegative() });

/** POST /auth/verifyLoginRequest body. */
export const verifyLoginRequest = z.strictObject({
  otp: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`)),
  session: z.string().min(1).max(100),
  email,
});
/** A step-up's action (issue 47; `STEP_UP_ACTIONS`, constants.ts). */
export const stepUpAction = z.enum(STEP_UP_ACTIONS);
export type { StepUpAction };
export { STEP_UP_ACTIONS };

/** POST /auth/step-up body: the action the code will allow (named in its e-mail). */
export const stepUpRequest = z.strictObject({ action: stepUpAction });
/**
 * POST /auth/step-up response: the account's address the code went to, and the seconds until another code may be
 * asked for (OTP_RESEND_SECONDS, as a sign-in code's).
 */
export const stepUpResponse = z.object({ sentTo: z.string(), resendAfterSeconds: z.number().int().nonnegative() });
/** POST /auth/step-up/verify body: the code from the e-mail. */
export const stepUpVerify = z.strictObject({ otp: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`)) });
/** POST /auth/step-up/verify response: until when (UTC, ISO 8601) the proof lets the session move tickets and money. */
export const stepUpVerified = z.object({ steppedUpUntil: z.string() });

/** Base64url text of at most `max` characters (WebAuthn's binary fields as JSON carries them). */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);

/** A credential named in WebAuthn options (PublicKeyCredentialDescriptorJSON): to exclude, or to allow. */
const credentialDescriptor = z.object({
  id: z.string(),
  /** `public-key`, the only type there is. */
  type: z.string(),
  transports: z.array(z.string()).optional(),
});
/** The WebAuthn extensions the server asks for: `credProps` (whether the passkey is discoverable). */
const extensionInputs = z.object({ credProps: z.boolean().optional() });
/**
 * WebAuthn options for `navigator.credentials.create` as JSON (PublicKeyCredentialCreationOptionsJSON, W3C WebAuthn
 * Level 3), as `@simplewebauthn/browser`'s `startRegistration` takes them (issue 47, decision 049). The challenge is
 * single use and lives 2 minutes.
 */
export const passkeyCreationOptions = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    })
    .optional(),
  hints: z.array(z.enum(['security-key', 'client-device', 'hybrid'])).optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: extensionInputs.optional(),
});
/**
 * WebAuthn options for `navigator.credentials.get` as JSON (PublicKeyCredentialRequestOptionsJSON), as
 * `startAuthentication` takes them: no credential named for a sign-in (the passkey names its account), the account's
 * for a step-up. The challenge is single use and lives 2 minutes.
 */
export const passkeyRequestOptions = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
  hints: z.array(z.enum(['security-key', 'client-device', 'hybrid'])).optional(),
  extensions: extensionInputs.optional(),
});
/** POST /auth/passkeys/register/options response. */
export const passkeyCreationOptionsResponse = z.object({ options: passkeyCreationOptions });
/** POST /auth/passkeys/sign-in/options and /auth/step-up/passkey/options response. */
export const passkeyRequestOptionsResponse = z.object({ options: passkeyRequestOptions });

/** What every WebAuthn response JSON carries besides its `response` (the credential id twice, its type). */
const credentialJson = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  /** The extensions' outputs the server reads: `credProps.rk` (whether the passkey is discoverable). */
  clientExtensionResults: z
    .object({ appid: z.boolean().optional(), credProps: z.object({ rk: z.boolean().optional() }).optional() })
    .default({}),
};
/**
 * POST /auth/passkeys/register body: the browser's RegistrationResponseJSON (`startRegistration`'s result), for the
 * challenge of `/auth/passkeys/register/options`.
 */
export const passkeyRegistration = z.object({
  response: z.object({
    ...credentialJson,
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(65536),
      authenticatorData: base64url(65536).optional(),
      publicKey: base64url(4096).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  }),
});
/**
 * POST /auth/passkeys/sign-in and /auth/step-up/passkey body: the browser's AuthenticationResponseJSON
 * (`startAuthentication`'s result), for the challenge of the matching `…/options`.
 */
export const passkeyAssertion = z.object({
  response: z.object({
    ...credentialJson,
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(65536),
      // Room for a post-quantum ML-DSA signature (2,420 to 4,627 bytes), which browsers may already make.
      signature: base64url(8192),
      userHandle: base64url(256).optional(),
    }),
  }),
});
/** A passkey of the account as Settings lists it (never its key): times in ISO 8601, UTC. */
export const passkey = z.object({
  id: z.string(),
  /** The browser and system it was made on ("Chrome · Android"). */
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced by its provider (a password manager, iCloud Keychain, Google Password Manager). */
  backedUp: z.boolean(),
});
/** GET /auth/passkeys response: the account's passkeys, newest first (at most `PASSKEYS_MAX`). */
export const passkeyList = z.array(passkey).max(PASSKEYS_MAX);
/** DELETE /auth/passkeys/{id} path. */
export const passkeyParams = z.strictObject({ id: base64url(1400).min(1) });

/** Tokens issued on sign-in. accessToken is a JWT (15 min); refreshToken is opaque. */
export const tokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });

/**
 * POST /auth/refresh body and response. Without `refreshToken` the server reads the refresh cookie
 * (`tp_refresh`, HttpOnly, Partitioned) instead: the embedded panel's way (decision 012).
 */
export const refreshRequest = z.strictObject({ refreshToken: z.string().min(1).max(200).optional() });
export const refreshResponse = tokenPair;

/** The User entity (spec section 3) as returned by GET /auth/me. */
export const user = z.object({
  email: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  middleName: z.string().nullable(),
  name: z.string().nullable(),
  nickname: z.string(),
  preferredUsername: z.string(),
  uniqueID: z.string(),
  picture: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  locale: z.string(),
  address: z.string().nullable(),
  birthdate: z.string().nullable(),
  gender: z.string().nullable(),
  profile: z.string().nullable(),
  website: z.string().nullable(),
  zoneInfo: z.string().nullable(),
  /**
   * Whether the holder gets a reminder e-mail before each event (issue 41 point 9; default true). Read-only in
   * POST /auth/profile: set with PUT /auth/reminders, or turned off by the reminder's unsubscribe link.
   */
  reminders: z.boolean(),
});
export type User = z.infer<typeof user>;

const personName = z.string().trim().min(1).max(NAME_MAX_LENGTH).refine(hasNoNul);
/**
 * Fields of the stored User the panel may send back in POST /auth/profile that the server never takes from
 * it (spec section 7: the body is the stored user minus the access token, merged with the change): accepted
 * and ignored. `accessToken` is listed for a client that forgets to take it out.
 */
export const PROFILE_READ_ONLY_FIELDS = [
  'email',
  'uniqueID',
  'preferredUsername',
  'picture',
  'name',
  'middleName',
  'address',
  'birthdate',
  'gender',
  'profile',
  'website',
  'zoneInfo',
  'reminders',
  'accessToken',
] as const;
const ignored = Object.fromEntries(PROFILE_READ_ONLY_FIELDS.map((k) => [k, z.unknown().optional()])) as Record<
  (typeof PROFILE_READ_ONLY_FIELDS)[number],
  z.ZodOptional<z.ZodUnknown>
>;
/**
 * POST /auth/profile body: the stored user merged with the change (spec section 7), or just the changed
 * fields. Editable: givenName, familyName, nickname, phoneNumber, locale; `null` clears givenName,
 * familyName or phoneNumber. Read-only fields (PROFILE_READ_ONLY_FIELDS) are dropped; unknown fields are refused.
 */
export const profileUpdate = z
  .strictObject({
    givenName: personName.nullable().optional(),
    familyName: personName.nullable().optional(),
    nickname: z.string().trim().min(1).max(NICKNAME_MAX_LENGTH).regex(NICKNAME_PATTERN).refine(hasNoNul).optional(),
    phoneNumber: z.string().trim().min(3).max(PHONE_MAX_LENGTH).regex(PHONE_PATTERN).nullable().optional(),
    locale: z.enum(LOCALES).optional(),
    ...ignored,
  })
  .transform(
    ({ givenName, familyName, nickname, phoneNumber, locale }) =>
      Object.fromEntries(
        Object.entries({ givenName, familyName, nickname, phoneNumber, locale }).filter(([, v]) => v !== undefined),
      ) as {
        givenName?: string | null;
        familyName?: string | null;
        nickname?: string;
        phoneNumber?: string | null;
        locale?: Locale;
      },
  );
/** PUT /auth/reminders body (issue 41 point 9): reminder e-mails before events on (`true`) or off. */
export const remindersUpdate = z.strictObject({ reminders: z.boolean() });

/** POST /auth/username body: the new nickname; the numeric suffix never changes. */
export const usernameUpdate = z.strictObject({
  username: z.string().trim().min(1).max(NICKNAME_MAX_LENGTH).regex(NICKNAME_PATTERN).refine(hasNoNul),
});

/**
 * Every error body: a message key (see messages.ts), with optional extras. The one error schema of the API
 * document (component `Error`); every route declares it for each error status it can answer.
 */
export const errorBody = z
  .object({
    message: z.string().meta({ description: 'a message key (`api.unauthorized`, `gift_tickets.not_allowed`…)' }),
    sessionId: z.string().optional().meta({
      description:
        'a new sign-in session, where the spec names one; with 429 `api.auth.resend_too_soon`, the open session whose code was already sent',
    }),
    resendAfterSeconds: z.number().int().nonnegative().optional().meta({
      description: 'with 429 `api.auth.resend_too_soon` and `sessionId`: seconds until another code may be asked for',
    }),
    fields: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: 'validation failures by field path (400 `api.invalid_request_body`)' }),
    detail: z
      .string()
      .optional()
      .meta({ description: 'organiser API: an English sentence naming the field or CSV column at fault' }),
    revealAt: z
      .string()
      .optional()
      .meta({ description: 'when the pass appears (409 `api.access.pass_not_yet_available`), ISO 8601 UTC' }),
    action: stepUpAction.optional().meta({
      description: 'with 403 `api.auth.step_up_required`: the action to name in `POST /v1/auth/step-up`',
    }),
    maxAgeSeconds: z.number().int().positive().optional().meta({
      description: 'with 403 `api.auth.step_up_required`: how old a proof of presence may be, seconds',
    }),
  })
  .meta({ id: 'Error', examples: [{ message: 'api.unauthorized' }] });
export type ErrorBody = z.infer<typeof errorBody>;
