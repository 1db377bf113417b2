import { Redactor } from '../src/redaction/redactor';
import { unmaskedPath } from '../src/http/masked-path';
const r = new Redactor({ enabled: true, extraPatterns: [] });
console.log(r.redactText('DB_PASSWORD=Fn7aXm2vL9pT4wZ8.md'));
unmaskedPath('/tmp/review-r24/home/antigravity-ide/brain/eeee0004-0000-4000-8000-000000000004', 'DB_PASSWORD=[REDACTED:password]', r).then(console.log);
import { listSessionFiles } from '../src/brain/files';
listSessionFiles('/tmp/review-r24/home/antigravity-ide/brain/eeee0004-0000-4000-8000-000000000004').then((x) => console.log(JSON.stringify(x)));
