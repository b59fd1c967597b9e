// `npm run prepare` (after npm install / npm ci): points git at the hooks in .husky/ for local commits.
// Skipped in CI, in production installs (husky, a dev dependency, is absent) and outside a git clone
// (husky then only prints why), so it never fails an install.
if (process.env.CI || process.env.NODE_ENV === 'production') process.exit(0);
try {
  const { default: husky } = await import('husky');
  const message = husky();
  if (message) console.log(`husky: ${message}`);
} catch {
  console.log('husky: not installed, git hooks skipped');
}
