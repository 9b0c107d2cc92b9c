// Embed the Engine behind another web server: the interface's endpoints mounted under
// /tae/ beside the host application's own routes (plain node:http here; any framework that
// hands out Node's request and response objects works the same way).
//   node embed-engine.ts [PORT]      (PORT 0 picks a free port; the address is printed)
import { createServer } from 'node:http';
import { createHttpHandler } from 'threat-analysis-engine/http';
import { Engine } from 'threat-analysis-engine/service';

const engine = await Engine.open({ memory: true }); // or { dataDir: './tae-data' }
const tae = createHttpHandler(engine);

const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.end('ok\n'); // the host application's own route
  } else if (req.url?.startsWith('/tae/')) {
    req.url = req.url.slice('/tae'.length); // the Engine sees the interface's own paths
    tae(req, res);
  } else {
    res.statusCode = 404;
    res.end();
  }
});

server.listen(Number(process.argv[2] ?? 8080), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : '?'}`);
});

const stop = async () => {
  server.close();
  await engine.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
