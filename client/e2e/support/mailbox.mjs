// Reads the server's dev mailbox (GET /dev/mailbox: one <article> per mail, newest first).
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const unescape = (html) => html.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function newestMatch(baseURL, email, pattern, what) {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const html = await (await fetch(`${baseURL}/dev/mailbox`)).text();
    const articles = html.split('<article>').slice(1);
    for (const article of articles) {
      if (!article.includes(`To ${email} `)) continue;
      const match = article.match(pattern);
      if (match) return unescape(match[1]);
    }
    await sleep(250);
  }
  throw new Error(`No ${what} for ${email} reached the dev mailbox`);
}

/** The newest verification code mailed to `email`. */
export const latestOtp = (baseURL, email) => newestMatch(baseURL, email, /verification code: (\d{4,8})/i, 'verification code');

/** The newest reset link mailed to `email`. */
export const latestResetLink = (baseURL, email) => newestMatch(baseURL, email, /<a href="([^"]*\/reset-password\/[^"]+)"/, 'reset link');

/** The newest invitation link (`{MAIN_PLATFORM_URL}/invitations/{token}`) mailed to `email`. */
export const latestInvitationLink = (baseURL, email) => newestMatch(baseURL, email, /<a href="([^"]*\/invitations\/[^"]+)"/, 'invitation link');

/** The newest sign-in link (`{MAIN_PLATFORM_URL}/magic-link/{token}`) mailed to `email`. */
export const latestSignInLink = (baseURL, email) => newestMatch(baseURL, email, /<a href="([^"]*\/magic-link\/[^"]+)"/, 'sign-in link');

/** The subject of the newest mail to `email` whose subject matches `pattern` (a RegExp). */
export const latestSubject = (baseURL, email, pattern) =>
  newestMatch(baseURL, email, new RegExp(`<h2>(${pattern.source})</h2>`, pattern.flags), `mail matching ${pattern}`);
