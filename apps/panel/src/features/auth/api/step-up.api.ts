/**
 * Step-up calls (issue 47): POST /v1/auth/step-up e-mails a code confirming one action to the account's address,
 * POST /v1/auth/step-up/verify checks it. Neither is itself a step-up route: they never open the sheet again.
 */
import type { StepUpAction } from '@tp/contract/constants';
import { client } from '../../../lib/api-client';

/** Sends a step-up code for `action`: the address it went to and the seconds until another may be asked for. */
export const requestStepUpCode = (action: StepUpAction) => client.POST('/v1/auth/step-up', { body: { action } });

/** Checks the step-up code: until when (ISO 8601) the session may move tickets and money. */
export const verifyStepUpCode = (otp: string) => client.POST('/v1/auth/step-up/verify', { body: { otp } });
