/**
 * PATCH /v1/org/organisation: the organisation's name, colour, links and reschedule threshold (minutes, issue 46)
 * from the branding form (an empty colour or link clears it). The answer becomes the organisation's cached value; the preview of `slug` is asked again.
 * @throws ApiError validation keys (`api.invalid_request_body` with `fields`).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import type { Organisation } from './organisation.api';

/** The links of the organisation the form edits, each an URL or empty. */
export const LINKS = ['logoUrl', 'websiteUrl', 'helpCenterUrl', 'appUrl'] as const;

export type BrandingFields = {
  name: string;
  logoUrl: string;
  primaryColor: string;
  websiteUrl: string;
  helpCenterUrl: string;
  appUrl: string;
  /** Minutes, as typed (issue 46: a move of an event's times by more is a new date). */
  rescheduleThresholdMinutes: string;
};

export const saveBranding = (v: BrandingFields): Promise<Organisation> =>
  org.PATCH('/v1/org/organisation', {
    body: {
      name: v.name,
      primaryColor: v.primaryColor || null,
      ...Object.fromEntries(LINKS.map((k) => [k, v[k].trim() || null])),
      rescheduleThresholdMinutes: Number(v.rescheduleThresholdMinutes),
    },
  });

export function useSaveBranding(slug: string, options: { onMutate: () => void; onError: (err: unknown) => void }) {
  const client = useQueryClient();
  return useMutation({
    onMutate: options.onMutate,
    mutationFn: saveBranding,
    onSuccess: async (o) => {
      client.setQueryData(consoleKeys.organisation, o);
      await client.invalidateQueries({ queryKey: consoleKeys.branding(slug) });
    },
    onError: options.onError,
  });
}
