#include "app/accounting/layout_settings.h"

#include "widgets/text/engine_text.h"

#include <QSettings>
#include <QString>

using namespace napkin;

namespace {

template <typename T, typename FromName>
void readName(const QSettings& s, const char* key, T& target, FromName fromName) {
    const QString text = s.value(QStringLiteral("accounting/") + QLatin1String(key)).toString();
    if (const auto value = fromName(text.toStdString()))
        target = *value;
}

void readNumber(const QSettings& s, const char* key, double& target) {
    target = s.value(QStringLiteral("accounting/") + QLatin1String(key), target).toDouble();
}

} // namespace

void saveLayoutSettings(QSettings& s, const AccountingInput& in) {
    const ModelSpec& m = in.model;
    s.setValue(QStringLiteral("kvHeads"), m.kvHeads);
    s.setValue(QStringLiteral("ffnDim"), m.ffnDim);
    s.setValue(QStringLiteral("mlp"), toQString(mlpKindName(m.mlp)));
    s.setValue(QStringLiteral("norm"), toQString(normKindName(m.norm)));
    s.setValue(QStringLiteral("bias"), toQString(onOffName(m.bias)));
    s.setValue(QStringLiteral("embeddings"), toQString(embeddingTyingName(m.embeddings)));
    s.setValue(QStringLiteral("position"), toQString(positionKindName(m.position)));
    s.setValue(QStringLiteral("experts"), m.experts);
    s.setValue(QStringLiteral("topK"), m.topK);
    s.setValue(QStringLiteral("dropout"), toQString(onOffName(m.dropout)));
    s.setValue(QStringLiteral("attentionImpl"), toQString(attentionImplName(m.attentionImpl)));
    const ParallelLayout& l = in.parallel;
    s.setValue(QStringLiteral("tp"), l.tp);
    s.setValue(QStringLiteral("pp"), l.pp);
    s.setValue(QStringLiteral("sp"), l.sp);
    s.setValue(QStringLiteral("cp"), l.cp);
    s.setValue(QStringLiteral("ep"), l.ep);
    s.setValue(QStringLiteral("microbatches"), l.microbatches);
}

void restoreLayoutSettings(const QSettings& s, AccountingInput& in) {
    ModelSpec& m = in.model;
    readNumber(s, "kvHeads", m.kvHeads);
    readNumber(s, "ffnDim", m.ffnDim);
    readName(s, "mlp", m.mlp, mlpKindFromName);
    readName(s, "norm", m.norm, normKindFromName);
    readName(s, "bias", m.bias, onOffFromName);
    readName(s, "embeddings", m.embeddings, embeddingTyingFromName);
    readName(s, "position", m.position, positionKindFromName);
    readNumber(s, "experts", m.experts);
    readNumber(s, "topK", m.topK);
    readName(s, "dropout", m.dropout, onOffFromName);
    readName(s, "attentionImpl", m.attentionImpl, attentionImplFromName);
    ParallelLayout& l = in.parallel;
    readNumber(s, "tp", l.tp);
    readNumber(s, "pp", l.pp);
    l.sp = s.value(QStringLiteral("accounting/sp"), l.sp).toBool();
    readNumber(s, "cp", l.cp);
    readNumber(s, "ep", l.ep);
    readNumber(s, "microbatches", l.microbatches);
}
