/** POST /v1/org/tickets/{externalId}/resend: e-mails the ticket to its holder again; answers the address it went to. */
import { useMutation } from '@tanstack/react-query';
import { org } from '../../api';

export const resendTicket = (externalId: string): Promise<{ email: string }> =>
  org.POST('/v1/org/tickets/{externalId}/resend', { params: { path: { externalId } } });

export const useResendTicket = (externalId: string) => useMutation({ mutationFn: () => resendTicket(externalId) });
