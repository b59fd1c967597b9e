/**
 * The pass verifier of the offline door: checks a pass code with the server's public key alone.
 * The pass code format and its verifier belong to the offline pass (contract `pass-code.ts`, decision
 * record 010-offline-pass); until it lands there is none, and an offline door says it needs the network.
 */
import type { PassVerifier } from './offline-door';

export const passVerifier: PassVerifier | null = null;
