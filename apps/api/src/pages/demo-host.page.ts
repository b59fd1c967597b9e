// TEMPORARY placeholder until the demo host page lands (helper writes the real one).
export function renderDemoHostPage(opts: { orgName: string; orgLogoUrl: string; orgWebsite: string; panelOrigin: string; lang: 'en' | 'es' }): string {
  return `<!doctype html><title>${opts.orgName}</title><script src="${opts.panelOrigin}/embed.js" async></script>`;
}
