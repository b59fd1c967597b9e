/**
 * The resale code PDFs' thread (resale.pdf.ts): a PDF's input in, its bytes out. pdfkit, fontkit and the fonts load
 * here, on the first PDF, never on the event loop.
 */
import { serveTasks } from '../../lib/task-thread.js';
import { renderCodePdfInPlace } from './resale.pdf.js';

serveTasks(renderCodePdfInPlace);
