/**
 * GET /v1/org/events/{externalId}/attendees.csv: the event's attendees as CSV, its headers in `lang` (the
 * console's language), saved by the browser as `attendees.csv`.
 */
import { useMutation } from '@tanstack/react-query';
import { org } from '../../api';

export const attendeesCsv = (externalId: string, lang: string): Promise<string> =>
  org.GET('/v1/org/events/{externalId}/attendees.csv', {
    params: { path: { externalId } },
    headers: { 'accept-language': lang },
    parseAs: 'text',
  });

/** Offers `csv` as a download named `attendees.csv` (the object URL is let go after 10 seconds). */
function saveCsv(csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'attendees.csv';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The export mutation of event `externalId` (empty: none chosen, the button is off). */
export const useExportAttendees = (externalId: string, lang: string) =>
  useMutation({ mutationFn: async () => saveCsv(await attendeesCsv(externalId, lang)) });
