/**
 * The camera's QR decoder where the browser has no `BarcodeDetector` (iPhone Safari, Firefox; issue 20
 * point 3): ZXing-C++ compiled to WebAssembly (zxing-wasm), run in this dedicated worker so decoding never
 * blocks the page. The .wasm file is a hashed asset of the scanner build, fetched from our own origin (never
 * zxing-wasm's default CDN). Messages: in `{ id, image: ImageData }`, out `{ id, texts: string[] }`.
 */
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

prepareZXingModule({
  overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
});

/** A frame to read, and the answer. */
export interface DecodeRequest {
  id: number;
  image: ImageData;
}
export interface DecodeAnswer {
  id: number;
  texts: string[];
}

self.addEventListener('message', (ev: MessageEvent<DecodeRequest>) => {
  const { id, image } = ev.data;
  readBarcodes(image, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 }).then(
    (results) => postMessage({ id, texts: results.filter((r) => r.isValid).map((r) => r.text) } satisfies DecodeAnswer),
    () => postMessage({ id, texts: [] } satisfies DecodeAnswer),
  );
});
