/**
 * The door scanner's texts in English and Spanish. The page's language comes from `<html lang>`,
 * which the server sets from `?lang=es` (apps/api scanner.public.routes.ts). Elements of
 * index.html name their text with `data-i18n="<key>"`; a test checks every key exists in both.
 */
import type { Locale } from '@tp/contract';
import { formatAt, formatDateTime, langOf as contractLangOf, type DateViewer } from '@tp/contract/format';

const en = {
  title: 'Door scanner',
  lang: 'Español',
  keyLabel: 'Scanner key',
  keyHelp:
    "Open the door set-up link or scan its QR (the organiser's console shows both when it makes a door key), or paste the door's key here. It stays on this device until you choose “Forget this door”.",
  start: 'Start scanning',
  wrongKey: 'Wrong scanner key.',
  eventLabel: 'Event',
  noEvents: 'No upcoming events.',
  codeLabel: 'Pass code',
  codeHelp: 'Scan the QR pass with a scanner, or type the code and press Enter.',
  check: 'Check',
  camera: 'Scan with camera',
  stopCamera: 'Stop camera',
  cameraError: 'The camera could not be opened.',
  forgetDoor: 'Forget this door',
  ready: 'Ready',
  readyDetail: 'Scan a QR pass.',
  checking: 'Checking…',
  admitted: 'ADMITTED',
  ticketsOne: '1 ticket',
  ticketsMany: '{n} tickets',
  alreadyUsed: 'ALREADY USED',
  usedAt: 'used {time}',
  alsoUsed: 'Already used before:',
  listed: 'LISTED FOR RESALE',
  listedDetail: 'Listed for resale: the holder must unlist it in the ticket panel before entry.',
  alsoListed: 'Not admitted, listed for resale:',
  invalid: 'INVALID',
  invalidDetail: 'This pass is not valid or has expired. Ask the holder to open their QR pass again.',
  staleDetail: 'This Google Wallet code is not live (a screenshot?). Ask the holder to open the pass in Google Wallet.',
  noTicket: 'NO TICKET',
  noTicketDetail: 'No ticket for this event.',
  transferred: 'TICKET MOVED',
  transferredDetail:
    'This ticket was gifted or resold to someone else: it now gets in only on the new holder’s pass. Do not admit.',
  transferredHeading: 'Passed on to someone else:',
  voided: 'TICKET VOIDED',
  voidedDetail: 'The organiser voided this ticket: it no longer gets in. Do not admit.',
  voidedHeading: 'Voided by the organiser:',
  notForThisEvent: 'NOT FOR THIS DOOR',
  notForThisEventDetail: 'This door key does not admit to this event. Pick one of its events.',
  notRevealed: 'NOT YET',
  notRevealedDetail: 'Passes for this event do not admit yet: the organiser set when they appear.',
  syncedOne: '1 check-in synced',
  syncedMany: '{n} check-ins synced',
  refusedNone: 'none refused',
  refusedOne: '1 refused',
  refusedMany: '{n} refused',
  refusedHeading: 'Refused by the server:',
  eventNotFound: 'This event no longer exists. Pick another one.',
  tooMany: 'Too many scans from this device. Wait a moment and scan again.',
  network: 'Could not reach the server. Check the connection and scan again.',
  failed: 'Something went wrong. Scan again.',
  pickEvent: 'Pick an event first.',
  holder: 'Holder',
  online: 'Online',
  offline: 'OFFLINE — admitting from the admissions list on this device',
  queuedNone: 'Nothing waiting to sync',
  queuedOne: '1 check-in waiting to sync',
  queuedMany: '{n} check-ins waiting to sync',
  listAge: 'admissions list updated {age}',
  listNone: 'no admissions list yet',
  decidedOffline: 'decided offline, will sync',
  offlineUnavailable: 'Offline, and this device has no admissions list for this event yet. Reconnect to scan.',
  conflictsTitle: 'Not recorded on sync',
  conflictsHelp: 'The server refused these offline admissions. Tell the organiser, then clear the list.',
  conflictsClear: 'Clear this list',
  conflict_already_used: 'already admitted at another door',
  conflict_moved: 'gifted, resold or swapped away before the scan',
  conflict_revoked: 'revoked by the organiser',
  conflict_listed: 'listed for resale',
  conflict_invalid_pass: 'pass not valid (signed out, revoked or forged)',
  conflict_not_revealed: 'scanned before passes for this event admit',
};

/** A text key of the scanner. */
export type TextKey = keyof typeof en;
/** The scanner's texts in one language. */
export type Texts = Record<TextKey, string>;

const es: Texts = {
  title: 'Control de acceso',
  lang: 'English',
  keyLabel: 'Clave del escáner',
  keyHelp:
    'Abre el enlace de configuración de la puerta o escanea su QR (la consola del organizador muestra ambos al crear una clave de puerta), o pega aquí la clave de la puerta. Se queda en este dispositivo hasta que elijas «Olvidar esta puerta».',
  start: 'Empezar a escanear',
  wrongKey: 'Clave del escáner incorrecta.',
  eventLabel: 'Evento',
  noEvents: 'No hay eventos próximos.',
  codeLabel: 'Código del pase',
  codeHelp: 'Escanea el pase QR con un lector o escribe el código y pulsa Intro.',
  check: 'Comprobar',
  camera: 'Escanear con la cámara',
  stopCamera: 'Detener cámara',
  cameraError: 'No se ha podido abrir la cámara.',
  forgetDoor: 'Olvidar esta puerta',
  ready: 'Listo',
  readyDetail: 'Escanea un pase QR.',
  checking: 'Comprobando…',
  admitted: 'ACCESO PERMITIDO',
  ticketsOne: '1 entrada',
  ticketsMany: '{n} entradas',
  alreadyUsed: 'YA USADA',
  usedAt: 'usada el {time}',
  alsoUsed: 'Ya usadas antes:',
  listed: 'EN REVENTA',
  listedDetail: 'En reventa: el titular debe retirarla de la venta en el panel de entradas antes de entrar.',
  alsoListed: 'No admitidas, en reventa:',
  invalid: 'NO VÁLIDO',
  invalidDetail: 'Este pase no es válido o ha caducado. Pide al titular que vuelva a abrir su pase QR.',
  staleDetail:
    'Este código de Google Wallet no es el actual (¿una captura de pantalla?). Pide al titular que abra el pase en Google Wallet.',
  noTicket: 'SIN ENTRADA',
  noTicketDetail: 'No tiene entrada para este evento.',
  transferred: 'ENTRADA TRANSFERIDA',
  transferredDetail:
    'Esta entrada se ha regalado o revendido a otra persona: ahora solo da acceso con el pase del nuevo titular. No permitas el acceso.',
  transferredHeading: 'Transferidas a otra persona:',
  voided: 'ENTRADA ANULADA',
  voidedDetail: 'El organizador ha anulado esta entrada: ya no da acceso. No permitas el acceso.',
  voidedHeading: 'Anuladas por el organizador:',
  notForThisEvent: 'NO ES DE ESTA PUERTA',
  notForThisEventDetail: 'La clave de esta puerta no da acceso a este evento. Elige uno de sus eventos.',
  notRevealed: 'AÚN NO',
  notRevealedDetail: 'Los pases de este evento aún no dan acceso: el organizador ha fijado cuándo aparecen.',
  syncedOne: '1 acceso sincronizado',
  syncedMany: '{n} accesos sincronizados',
  refusedNone: 'ninguno rechazado',
  refusedOne: '1 rechazado',
  refusedMany: '{n} rechazados',
  refusedHeading: 'Rechazados por el servidor:',
  eventNotFound: 'Este evento ya no existe. Elige otro.',
  tooMany: 'Demasiados escaneos desde este dispositivo. Espera un momento y vuelve a escanear.',
  network: 'No se ha podido contactar con el servidor. Revisa la conexión y vuelve a escanear.',
  failed: 'Algo ha fallado. Vuelve a escanear.',
  pickEvent: 'Elige primero un evento.',
  holder: 'Titular',
  online: 'En línea',
  offline: 'SIN CONEXIÓN — admitiendo con la lista de accesos de este dispositivo',
  queuedNone: 'Nada pendiente de sincronizar',
  queuedOne: '1 acceso pendiente de sincronizar',
  queuedMany: '{n} accesos pendientes de sincronizar',
  listAge: 'lista de accesos actualizada {age}',
  listNone: 'aún no hay lista de accesos',
  decidedOffline: 'decidido sin conexión, se sincronizará',
  offlineUnavailable:
    'Sin conexión, y este dispositivo aún no tiene la lista de accesos de este evento. Vuelve a conectarte para escanear.',
  conflictsTitle: 'No registrados al sincronizar',
  conflictsHelp:
    'El servidor ha rechazado estos accesos hechos sin conexión. Avisa al organizador y luego borra la lista.',
  conflictsClear: 'Borrar esta lista',
  conflict_already_used: 'ya validada en otra puerta',
  conflict_moved: 'regalada, revendida o cambiada antes del escaneo',
  conflict_revoked: 'anulada por el organizador',
  conflict_listed: 'en reventa',
  conflict_invalid_pass: 'pase no válido (sesión cerrada, anulado o falsificado)',
  conflict_not_revealed: 'escaneada antes de que los pases de este evento fueran válidos',
};

export const catalogues: Record<Locale, Texts> = { en, es };

/** The page language from a `lang` attribute: Spanish for `es`, English otherwise (the contract's helper). */
export const langOf: (value: string | null | undefined) => Locale = contractLangOf;

/** Fills `{name}` placeholders: `fill('{n} tickets', { n: 2 })` is `2 tickets`. */
export const fill = (template: string, vars: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

/**
 * Date formats of the page, through the product's one date helper (`@tp/contract/format`) in the page
 * language: check-in times in the picked event's time zone (`setTimeZone`), event dates each in its own zone, with
 * the zone's short name when it differs from the device's and the year when it is not this one (issue 40).
 * `viewer` (the device's zone and clock when omitted) is for tests.
 */
export function formatsFor(lang: Locale, viewer?: DateViewer) {
  const locale = lang === 'es' ? 'es-ES' : 'en-AU';
  let zone: string | undefined;
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  return {
    /** How long ago `iso` (ISO 8601 UTC) was at `nowMs`: "now", "2 minutes ago", "hace 1 hora". */
    ago: (iso: string, nowMs: number) => {
      const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
      if (seconds < 60) return relative.format(-seconds, 'second');
      if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
      if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
      return relative.format(-Math.floor(seconds / 86_400), 'day');
    },
    /** The IANA zone of the picked event, in which check-in times are shown (the device's until one is picked). */
    setTimeZone: (timeZone: string | undefined) => {
      zone = timeZone;
    },
    /** A check-in time (ISO 8601 UTC) inside a sentence: "Wed, 25 Nov, 9:53 PM" / "mié, 25 nov a las 21:53". */
    time: (iso: string) => formatAt(iso, zone, lang, viewer),
    /** An event's start (ISO 8601 UTC) in its own zone, as the panel's cards: "Tue, 01 Dec, 7:00 PM" / "mar, 1 dic 19:00". */
    date: (iso: string, timeZone?: string) => formatDateTime(iso, timeZone, lang, viewer),
  };
}
export type Formats = ReturnType<typeof formatsFor>;
