import QRCode from 'qrcode';
import { PNG } from 'pngjs';
const code = 'TP2S.' + 'A'.repeat(10) + 'xYz0123456789-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab';
function bench(name, fn, n = 3000) {
  for (let i = 0; i < 300; i++) fn(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  console.log(name, ((performance.now() - t) / n * 1000).toFixed(1), 'µs');
}
let mods;
bench('qrcode.create', (i) => { mods = QRCode.create(code + i, { errorCorrectionLevel: 'M', maskPattern: 0 }).modules; });
bench('png write', () => {
  const side = mods.size + 8; const png = new PNG({ width: side, height: side }); png.data.fill(255);
  for (let r = 0; r < mods.size; r++) for (let c = 0; c < mods.size; c++) if (mods.get(r, c)) { const at = ((r + 4) * side + c + 4) * 4; png.data.fill(0, at, at + 3); }
  PNG.sync.write(png, { colorType: 0, filterType: 0 });
});
console.log('size', mods.size, code.length);
