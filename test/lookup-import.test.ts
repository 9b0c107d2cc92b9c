/** Importers: lookup CSV/JSON, PowerShell VersionInfo dumps, provider XML; diagnostics; merged datasets. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createLookupDataset,
  IMPORT_LIMITS,
  importLookupCsv,
  importLookupJson,
  importProviderXml,
  importVersionInfo,
  lookupSync,
} from '../src/lookup/index.js';

describe('lookup CSV and JSON', () => {
  test('CSV with quoted cells, CRLF and the EventID alias becomes event rows in column order', () => {
    const csv =
      'EventID,Provider,OS Version,Version,Description Short,Data Fields,Extra\r\n' +
      '9001,My-Provider,"Windows 11","1","A ""quoted"" thing, with comma","A|B",x\r\n';
    const out = importLookupCsv(csv, { module: 'event_id' });
    assert.deepEqual(out.rows, [
      ['9001', 'Windows 11', '1', 'My-Provider', 'A "quoted" thing, with comma', 'A|B', '', '', '', ''],
    ]);
    assert.ok(out.diagnostics.some((d) => d.message.includes('"Extra"')));
  });

  test('CSV missing a required column yields an error diagnostic and no rows', () => {
    const out = importLookupCsv('Event ID,Provider\n1,x\n', { module: 'event_id' });
    assert.deepEqual(out.rows, []);
    assert.equal(out.diagnostics[0]?.severity, 'error');
  });

  test('records with an empty key are skipped with a warning naming the record line', () => {
    const out = importLookupCsv('File Name,Description\n,nothing\nfoo.exe,Foo\n', { module: 'file_name' });
    assert.deepEqual(out.rows, [['foo.exe', '', 'Foo', '', '', '']]);
    assert.deepEqual(
      out.diagnostics.map((d) => d.record),
      [2],
    );
  });

  test('JSON in the endpoint shape and as an array of objects', () => {
    const shaped = JSON.stringify({ columns: ['File Name', 'Description'], rows: [['a.dll', 'A'], 'bad'] });
    const a = importLookupJson(shaped, { module: 'file_name' });
    assert.deepEqual(a.rows, [['a.dll', '', 'A', '', '', '']]);
    assert.equal(a.diagnostics.length, 1);
    const b = importLookupJson(JSON.stringify([{ 'File Name': 'b.exe', 'Company Name': 42 }, 7]), {
      module: 'file_name',
    });
    assert.deepEqual(b.rows, [['b.exe', '', '', '', '42', '']]);
    assert.equal(b.diagnostics[0]?.record, 2);
  });

  test('malformed JSON is a diagnostic, not an exception', () => {
    const out = importLookupJson('{"columns": [', { module: 'event_id' });
    assert.deepEqual(out.rows, []);
    assert.equal(out.diagnostics[0]?.severity, 'error');
  });

  test('control characters in cells become spaces and overlong cells are cut', () => {
    const long = 'x'.repeat(IMPORT_LIMITS.maxCellChars + 10);
    const out = importLookupJson(JSON.stringify([{ 'File Name': 'a\tb\nc.exe', Description: long }]), {
      module: 'file_name',
    });
    assert.equal(out.rows[0]?.[0], 'a b c.exe');
    assert.equal(out.rows[0]?.[2]?.length, IMPORT_LIMITS.maxCellChars);
  });

  test('an unknown module is a caller error', () => {
    assert.throws(() => importLookupCsv('x', { module: 'nope' as never }), /options\.module/);
  });
});

describe('PowerShell VersionInfo', () => {
  const json = JSON.stringify([
    {
      FileName: 'C:\\Gold\\System32\\foo.exe',
      FileDescription: 'Foo Tool',
      ProductName: 'Gold OS',
      CompanyName: 'Contoso',
      FileVersion: '1.0',
    },
    {
      FileName: 'C:\\Gold\\System32\\foo.exe',
      FileDescription: 'Foo Tool v2',
      ProductName: 'Gold OS',
      CompanyName: 'Contoso',
    },
    {
      VersionInfo: {
        FileName: 'C:\\Gold\\System32\\bar.dll',
        FileDescription: 'Bar Library',
        ProductName: null,
        CompanyName: 'Contoso',
      },
    },
    { FileDescription: 'no path' },
  ]);

  test('ConvertTo-Json output: one row per file, values across records joined by ##', () => {
    const out = importVersionInfo(json);
    assert.deepEqual(out.rows, [
      ['foo.exe', 'C:\\Gold\\System32\\foo.exe', 'Foo Tool##Foo Tool v2', 'Gold OS', 'Contoso', ''],
      ['bar.dll', 'C:\\Gold\\System32\\bar.dll', 'Bar Library', '', 'Contoso', ''],
    ]);
    assert.deepEqual(
      out.diagnostics.map((d) => d.record),
      [4],
    );
  });

  test('Export-Csv output, with or without the #TYPE line, gives the same rows', () => {
    const csv =
      '"FileName","FileDescription","ProductName","CompanyName"\n"C:\\Gold\\a.exe","A app","Gold OS","Contoso"\n';
    const expected = [['a.exe', 'C:\\Gold\\a.exe', 'A app', 'Gold OS', 'Contoso', '']];
    assert.deepEqual(importVersionInfo(csv).rows, expected);
    assert.deepEqual(
      importVersionInfo(`#TYPE System.Diagnostics.FileVersionInfo\n${csv}`, { format: 'csv' }).rows,
      expected,
    );
  });

  test('imported rows merge with the built-in ones and become searchable', () => {
    const dataset = createLookupDataset({ fileName: importVersionInfo(json).rows });
    const hit = lookupSync({ search: 'foo tool v2', module: 'file_name' }, { dataset });
    assert.deepEqual(
      hit.rows.map((r) => r[0]),
      ['foo.exe'],
    );
    assert.equal(dataset.counts().file_name, createLookupDataset().counts().file_name + 2);
    assert.equal(lookupSync({ search: 'cmd.exe', module: 'file_name' }, { dataset }).rows.length, 3);
  });
});

describe('provider XML (wevtutil gp /ge /gm /f:xml)', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<provider name="Contoso-Agent" guid="{00000000-0000-0000-0000-000000000001}" message="">
  <channels><channel name="Contoso-Agent/Operational" id="16" flags="0" message=""/></channels>
  <tasks><task name="Scan" value="1" message="Scan task"/></tasks>
  <events>
    <event value="100" version="2" opcode="0" channel="16" level="4" task="1" keywords="0x8000000000000000" message="Scan started on %1 &amp; %2&#13;&#10;second line">
      <template xmlns="http://schemas.microsoft.com/win/2004/08/events">
        <data name="Target" inType="win:UnicodeString" outType="xs:string"/>
        <data name="Count" inType="win:UInt32" outType="xs:unsignedInt"/>
      </template>
    </event>
    <event value="101" version="0" channel="16" message="Stopped"/>
  </events>
</provider>`;

  test('events become rows with provider, version, channel name, task, first message line and fields', () => {
    const out = importProviderXml(xml, { osVersion: 'Gold image 2026' });
    assert.deepEqual(out.rows, [
      [
        '100',
        'Gold image 2026',
        '2',
        'Contoso-Agent',
        'Scan started on %1 & %2',
        'Target|Count',
        'Contoso-Agent/Operational',
        'Scan task',
        '',
        'imported: provider metadata',
      ],
      [
        '101',
        'Gold image 2026',
        '0',
        'Contoso-Agent',
        'Stopped',
        '',
        'Contoso-Agent/Operational',
        '',
        '',
        'imported: provider metadata',
      ],
    ]);
    assert.deepEqual(out.diagnostics, []);
  });

  test('a template given as escaped XML text in an attribute is read too', () => {
    const escaped =
      '<provider name="P"><events><event value="5" version="1" template="&lt;template&gt;&lt;data name=&quot;A&quot;/&gt;&lt;data name=&quot;B&quot;/&gt;&lt;/template&gt;"/></events></provider>';
    assert.equal(importProviderXml(escaped).rows[0]?.[5], 'A|B');
  });

  test('instrumentation manifests resolve templates by tid', () => {
    const manifest = `<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation><events>
      <provider name="M" guid="{1}"><templates><template tid="t1"><data name="X" inType="win:UInt32"/></template></templates>
      <events><event value="7" version="0" template="t1"/></events></provider></events></instrumentation></instrumentationManifest>`;
    assert.equal(importProviderXml(manifest).rows[0]?.[5], 'X');
  });

  test('provider-metadata dumps (Providers/Provider/EventMetadata) are read, CDATA kept as written', () => {
    const dump = `<?xml version="1.0"?>
<Providers><Provider Name="Contoso-Audit" Guid="{0}"><EventMetadata>
  <Event><Id>4776</Id><Version>1</Version><Channel>Security</Channel><Level>Information</Level>
    <Message><![CDATA[
Validated credentials for %1 &amp; more.

Package:	%1]]></Message>
    <Template><![CDATA[<template xmlns="http://schemas.microsoft.com/win/2004/08/events">
  <data name="PackageName" inType="win:UnicodeString"/><data name="TargetUserName" inType="win:UnicodeString"/>
</template>]]></Template></Event>
  <Event><Id>x</Id></Event>
</EventMetadata></Provider></Providers>`;
    const out = importProviderXml(dump, { osVersion: 'W11' });
    assert.deepEqual(out.rows, [
      [
        '4776',
        'W11',
        '1',
        'Contoso-Audit',
        'Validated credentials for %1 &amp; more.',
        'PackageName|TargetUserName',
        'Security',
        '',
        '',
        'imported: provider metadata',
      ],
    ]);
    assert.deepEqual(
      out.diagnostics.map((d) => d.severity),
      ['warning'],
    );
  });

  test('entities declared in a DOCTYPE are never expanded', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<provider name="P"><events><event value="1" version="0" message="&b;"/></events></provider>`;
    const out = importProviderXml(bomb);
    assert.equal(out.rows[0]?.[4], '&b;');
    assert.ok(out.diagnostics.some((d) => d.message.includes('DOCTYPE')));
  });

  test('numbers stay text: a leading-zero version is kept as written', () => {
    const out = importProviderXml(
      '<provider name="P"><events><event value="0042" version="01"/></events></provider>',
    );
    assert.deepEqual([out.rows[0]?.[0], out.rows[0]?.[2]], ['0042', '01']);
  });

  test('broken XML or no events give an error diagnostic and no rows', () => {
    for (const bad of ['<provider name="P"><events>', '<nothing/>', 42 as unknown as string]) {
      const out = importProviderXml(bad);
      assert.deepEqual(out.rows, []);
      assert.equal(out.diagnostics.at(-1)?.severity, 'error');
    }
  });

  test('imported provider rows are found by event id next to the built-in ones', () => {
    const dataset = createLookupDataset({ eventId: importProviderXml(xml).rows });
    const got = lookupSync(
      {
        search: '100',
        module: 'event_id',
        filter: [{ field: 'Provider', operator: 'equals', value: 'contoso-agent' }],
      },
      { dataset },
    );
    assert.deepEqual(
      got.rows.map((r) => r[0]),
      ['100'],
    );
  });
});
