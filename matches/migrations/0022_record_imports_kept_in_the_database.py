"""Record imports for more than one server: an upload's bytes move from MEDIA_ROOT into
the database (in pieces of about 1 MB), an import is run under a lease, its line rows
are one per line, and why it stopped is a reason for its uploader, not an exception."""

import django.db.models.deletion
from django.core.files.base import ContentFile
from django.db import migrations, models, transaction
from django.db.models import Count
from django.utils import timezone

PIECE_BYTES = 1024 * 1024


def files_into_the_database(apps, schema_editor):
    """Each kept file is read into pieces, then (once this commits) deleted from the disk.
    An unfinished or stopped import whose file is gone (taken on another server, or
    deleted) stops, saying so; any other stopped import can be tried again."""
    RecordImport = apps.get_model("matches", "RecordImport")
    RecordImportFile = apps.get_model("matches", "RecordImportFile")
    RecordImportChunk = apps.get_model("matches", "RecordImportChunk")
    read: list[tuple[object, str]] = []
    lost: set[int] = set()
    for kept in RecordImportFile.objects.exclude(content="").order_by("pk"):
        storage, name = kept.content.storage, kept.content.name
        try:
            with storage.open(name, "rb") as data:
                number = size = 0
                while piece := data.read(PIECE_BYTES):
                    RecordImportChunk.objects.create(file=kept, number=number, data=piece)
                    number, size = number + 1, size + len(piece)
        except OSError:  # not on this server's disk
            lost.add(kept.record_import_id)
            continue
        kept.size = size
        kept.save(update_fields=["size"])
        read.append((storage, name))
    RecordImport.objects.filter(pk__in=lost).exclude(status="done").update(
        status="failed", stop_reason="file_lost", finished_at=timezone.now())
    RecordImport.objects.filter(status="failed", stop_reason="").update(stop_reason="failed")
    connection = schema_editor.connection.alias
    transaction.on_commit(lambda: [storage.delete(name) for storage, name in read],
                          using=connection)


def files_back_on_the_disk(apps, schema_editor):
    RecordImport = apps.get_model("matches", "RecordImport")
    RecordImportFile = apps.get_model("matches", "RecordImportFile")
    RecordImportChunk = apps.get_model("matches", "RecordImportChunk")
    for kept in RecordImportFile.objects.filter(
            pk__in=RecordImportChunk.objects.values("file")):
        data = b"".join(bytes(piece) for piece in RecordImportChunk.objects.filter(
            file=kept.pk).order_by("number").values_list("data", flat=True))
        kept.content.save(kept.name, ContentFile(data), save=True)
    for stopped in RecordImport.objects.exclude(stop_reason=""):
        stopped.error = ("The uploaded file is no longer kept." if stopped.stop_reason == "file_lost"
                         else "The import stopped.")
        stopped.save(update_fields=["error"])


def lines_once(apps, schema_editor):
    """Where two runners ran one import at once, each line has several rows: the one
    that stored the match stays (else the first), and the import's counts are made again
    from the rows kept."""
    RecordImport = apps.get_model("matches", "RecordImport")
    RecordImportLine = apps.get_model("matches", "RecordImportLine")
    doubled = (RecordImportLine.objects.values("record_import", "number")
               .annotate(rows=Count("pk")).filter(rows__gt=1).order_by())
    counted_again: set[int] = set()
    for group in doubled:
        rows = RecordImportLine.objects.filter(record_import=group["record_import"],
                                               number=group["number"])
        kept = (rows.filter(outcome="stored").order_by("pk").first()
                or rows.order_by("pk").first())
        rows.exclude(pk=kept.pk).delete()
        counted_again.add(group["record_import"])
    for record_import in RecordImport.objects.filter(pk__in=counted_again):
        lines = RecordImportLine.objects.filter(record_import=record_import)
        record_import.lines_read = lines.filter(number__lte=record_import.max_records).count()
        record_import.stored = lines.filter(outcome="stored").count()
        record_import.refused = lines.filter(outcome="refused").count()
        record_import.duplicates = lines.filter(outcome="duplicate").count()
        record_import.save(update_fields=["lines_read", "stored", "refused", "duplicates"])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0021_paper_game_players'),
    ]

    operations = [
        migrations.CreateModel(
            name='RecordImportChunk',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('data', models.BinaryField()),
                ('file', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='matches.recordimportfile')),
            ],
            options={
                'ordering': ['file', 'number'],
                'constraints': [models.UniqueConstraint(fields=('file', 'number'), name='record_import_chunk_once')],
            },
        ),
        migrations.AddField(
            model_name='recordimportfile',
            name='size',
            field=models.PositiveBigIntegerField(default=0, verbose_name='bytes uploaded'),
        ),
        migrations.AddField(
            model_name='recordimport',
            name='leased_by',
            field=models.CharField(blank=True, default='', max_length=200, verbose_name='run by'),
        ),
        migrations.AddField(
            model_name='recordimport',
            name='leased_until',
            field=models.DateTimeField(blank=True, null=True, verbose_name='run by it until'),
        ),
        migrations.AddField(
            model_name='recordimport',
            name='stop_reason',
            field=models.CharField(blank=True, choices=[('failed', 'Something went wrong on the server; its log says what. Try again: the import goes on after the records already read.'), ('file_lost', 'The uploaded file is no longer kept: upload it again.')], default='', max_length=10, verbose_name='why it stopped'),
        ),
        migrations.RunPython(files_into_the_database, files_back_on_the_disk),
        migrations.RunPython(lines_once, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='recordimport',
            name='error',
        ),
        migrations.RemoveField(
            model_name='recordimportfile',
            name='content',
        ),
        migrations.AddConstraint(
            model_name='recordimport',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'failed'), models.Q(('stop_reason', ''), _negated=True)), models.Q(models.Q(('status', 'failed'), _negated=True), ('stop_reason', '')), _connector='OR'), name='record_import_stopped_says_why'),
        ),
        migrations.AddConstraint(
            model_name='recordimport',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('leased_by', ''), ('leased_until__isnull', True)), models.Q(('leased_until__isnull', False), ('status', 'running'), models.Q(('leased_by', ''), _negated=True)), _connector='OR'), name='record_import_lease_while_running'),
        ),
        migrations.AddConstraint(
            model_name='recordimportline',
            constraint=models.UniqueConstraint(fields=('record_import', 'number'), name='record_import_line_once'),
        ),
    ]
